// What to do next, for a user who typed too little: `flashmark` with no
// argument (the start page) and `flashmark run` with no TARGET (ways to
// name one). Plain text, one command a line with what it does; pure.
#pragma once

#include <string>

namespace flashmark {

std::string StartPageText();
std::string RunTargetExamplesText();

}  // namespace flashmark
