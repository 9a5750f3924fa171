// fio's file layout in the flashmark workload an import suggests: each
// fio job's own files (numjobs x nrfiles, size per job or filesize per
// file), or the named file every job shares (filename=), in a directory.
#include "store/fio_job_options.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

struct Layout {
  JobSpec spec;
  std::vector<std::string> notes;
};

Layout Spec(const FioOptions& options, int threads) {
  Layout layout;
  auto spec = FioJobSpec(options, threads, layout.notes);
  EXPECT_TRUE(spec.ok()) << spec.error().message;
  if (spec.ok()) layout.spec = *spec;
  return layout;
}

TEST(FioLayout, NumjobsEachMakeTheirOwnFilesOfSize) {
  // numjobs=4 size=64M nrfiles=8 with group_reporting: 256 MiB in 32 files.
  const Layout grouped = Spec(
      {{"rw", "randread"}, {"numjobs", "4"}, {"size", "64M"}, {"nrfiles", "8"}},
      4);
  EXPECT_EQ(grouped.spec.threads, 4);
  EXPECT_EQ(grouped.spec.file_num, 32);
  EXPECT_EQ(grouped.spec.size.bytes, 256 * kMiB);
  EXPECT_TRUE(grouped.spec.size_given);
  ASSERT_EQ(grouped.notes.size(), 1u);
  EXPECT_NE(grouped.notes[0].find("each of its 4 jobs its own 8 files"),
            std::string::npos)
      << grouped.notes[0];
  // One job of them (no group_reporting: a run each): its own files.
  const Layout one = Spec(
      {{"rw", "randread"}, {"numjobs", "4"}, {"size", "64M"}, {"nrfiles", "8"}},
      1);
  EXPECT_EQ(one.spec.file_num, 8);
  EXPECT_EQ(one.spec.size.bytes, 64 * kMiB);
  EXPECT_TRUE(one.notes.empty());
}

TEST(FioLayout, NrfilesWithoutNumjobsIsOneJobsFiles) {
  const Layout layout = Spec({{"size", "1G"}, {"nrfiles", "16"}}, 1);
  EXPECT_EQ(layout.spec.file_num, 16);
  EXPECT_EQ(layout.spec.size.bytes, 1024 * kMiB);
  const Layout fio_default = Spec({{"size", "1G"}}, 1);
  EXPECT_EQ(fio_default.spec.file_num, 1) << "fio makes one file per job";
}

TEST(FioLayout, FilesizeIsPerFile) {
  const Layout layout =
      Spec({{"filesize", "16M"}, {"nrfiles", "4"}, {"numjobs", "2"}}, 2);
  EXPECT_EQ(layout.spec.file_num, 8);
  EXPECT_EQ(layout.spec.size.bytes, 2 * 4 * 16 * kMiB);
  // size is the job's total where both are given.
  const Layout both =
      Spec({{"size", "64M"}, {"filesize", "16M"}, {"nrfiles", "4"}}, 1);
  EXPECT_EQ(both.spec.size.bytes, 64 * kMiB);
}

TEST(FioLayout, AFilenameIsSharedByEveryJob) {
  const Layout layout = Spec(
      {{"filename", "/data/fio.file"}, {"size", "64M"}, {"numjobs", "4"}}, 4);
  ASSERT_EQ(layout.spec.targets.size(), 1u);
  EXPECT_EQ(layout.spec.targets[0], "/data/fio.file");
  EXPECT_EQ(layout.spec.file_num, 1);
  EXPECT_EQ(layout.spec.size.bytes, 64 * kMiB) << "one region, all jobs";
  EXPECT_TRUE(layout.notes.empty());
  const Layout two =
      Spec({{"filename", "/data/a:/data/b"}, {"size", "64M"}}, 1);
  EXPECT_EQ(two.spec.file_num, 2);
}

TEST(FioLayout, ADirectoryHoldsEveryJobsFiles) {
  const Layout layout = Spec({{"directory", "/mnt/ssd"},
                              {"size", "32M"},
                              {"nrfiles", "2"},
                              {"numjobs", "3"}},
                             3);
  ASSERT_EQ(layout.spec.targets.size(), 1u);
  EXPECT_EQ(layout.spec.targets[0], "/mnt/ssd");
  EXPECT_EQ(layout.spec.file_num, 6);
  EXPECT_EQ(layout.spec.size.bytes, 96 * kMiB);
}

TEST(FioLayout, LayoutsPastAnyLimitAreUnknownNotWrapped) {
  const Layout layout = Spec(
      {{"filesize", "8E"}, {"nrfiles", "1073741824"}, {"numjobs", "65536"}},
      65536);
  EXPECT_FALSE(layout.spec.size_given);
  EXPECT_EQ(layout.spec.file_num, 1 << 30);
}

TEST(FioLayout, AShareOfADeviceIsAnUnknownSize) {
  const Layout layout =
      Spec({{"filename", "/dev/nvme0n1"}, {"size", "50%"}}, 1);
  EXPECT_FALSE(layout.spec.size_given);
}

}  // namespace
}  // namespace flashmark
