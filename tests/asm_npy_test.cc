// Tests of the .npy reader and writer (include/gpsimd/npy.h).
//
// Expected files are built byte by byte here from the NumPy format description
// (magic, version, little-endian header length, dict literal, data), independently
// of npy.cc; examples/data/sort_keys.npy was written by a separate script.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpsimd/npy.h"

namespace gpsimd {
namespace {

std::vector<uint8_t> npy_bytes(int major, const std::string& header,
                               const std::vector<uint8_t>& data) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  const std::size_t n = header.size();
  out.push_back(static_cast<uint8_t>(n));
  out.push_back(static_cast<uint8_t>(n >> 8));
  if (major >= 2) {
    out.push_back(static_cast<uint8_t>(n >> 16));
    out.push_back(static_cast<uint8_t>(n >> 24));
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<uint8_t> le32(std::initializer_list<uint32_t> v) {
  std::vector<uint8_t> out;
  for (uint32_t x : v)
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>(x >> (8 * b)));
  return out;
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  std::string err;
  EXPECT_FALSE(parse_npy(bytes, "x.npy", &err).has_value());
  return err;
}

TEST(Npy, ParsesVersion1FloatMatrix) {
  const auto data = le32({0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x40a00000, 0x40c00000});
  auto a = parse_npy(
      npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }      \n", data),
      "x.npy", nullptr);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->descr, "<f4");
  EXPECT_EQ(a->itemsize, 4u);
  EXPECT_EQ(a->shape, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(a->count(), 6u);
  EXPECT_EQ(a->data, data);
}

TEST(Npy, ParsesVersion2AndOneByteTypes) {
  auto a = parse_npy(
      npy_bytes(2, "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }\n", {1, 2, 0xff}),
      "x.npy", nullptr);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->descr, "|u1");
  EXPECT_EQ(a->shape, (std::vector<uint64_t>{3}));
  // NumPy writes '|i1'; '<i1' and 'i1' mean the same.
  for (const char* d : {"|i1", "<i1", "i1"}) {
    auto b = parse_npy(
        npy_bytes(1,
                  std::string("{'descr': '") + d + "', 'fortran_order': False, 'shape': (1,), }\n",
                  {0x80}),
        "x.npy", nullptr);
    ASSERT_TRUE(b) << d;
    EXPECT_EQ(b->descr, "|i1");
  }
}

TEST(Npy, ParsesScalarAndKeysInAnyOrder) {
  auto a = parse_npy(
      npy_bytes(1, "{'shape': (), 'fortran_order': False, 'descr': '<i2'}\n", {0x34, 0x12}),
      "x.npy", nullptr);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->shape.empty());
  EXPECT_EQ(a->count(), 1u);
  EXPECT_EQ(a->itemsize, 2u);
}

TEST(Npy, AcceptsEverySupportedType) {
  const std::pair<const char*, unsigned> types[] = {{"<f4", 4}, {"<f2", 2}, {"<u2", 2}, {"<i2", 2},
                                                    {"|u1", 1}, {"|i1", 1}, {"<u4", 4}, {"<i4", 4}};
  for (auto [d, size] : types) {
    std::vector<uint8_t> data(2 * size, 0x5a);
    auto a = parse_npy(
        npy_bytes(1,
                  std::string("{'descr': '") + d + "', 'fortran_order': False, 'shape': (2,), }\n",
                  data),
        "x.npy", nullptr);
    ASSERT_TRUE(a) << d;
    EXPECT_EQ(a->itemsize, size) << d;
  }
}

TEST(Npy, RejectsWithClearErrors) {
  EXPECT_EQ(error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n",
                               std::vector<uint8_t>(16))),
            "x.npy: Fortran-order arrays are not supported; save a C-order array "
            "(numpy.ascontiguousarray)");
  EXPECT_EQ(error_of(npy_bytes(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }\n",
                               std::vector<uint8_t>(4))),
            "x.npy: big-endian type '>f4' is not supported; save it little-endian (astype('<f4'))");
  EXPECT_EQ(error_of(npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }\n",
                               std::vector<uint8_t>(8))),
            "x.npy: element type '<f8' is not supported (use <f4 <f2 <u2 <i2 |u1 |i1 <u4 <i4)");
  EXPECT_EQ(error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n",
                               std::vector<uint8_t>(20))),
            "x.npy: truncated: the shape needs 24 data bytes, the file has 20");
  EXPECT_EQ(error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\n",
                               std::vector<uint8_t>(8))),
            "x.npy: 4 bytes of trailing data after the array's 4");
  EXPECT_EQ(error_of(npy_bytes(1,
                               "{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (1000, 1000000), }\n",
                               {})),
            "x.npy: the array is too large (4000000000 bytes, the limit is 1073741824)");
  EXPECT_EQ(error_of(npy_bytes(1,
                               "{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (4294967296, 4294967296, 4294967296), }\n",
                               {})),
            "x.npy: the array is too large (more than 1073741824 bytes)");
  EXPECT_EQ(error_of(npy_bytes(4, "{}", {})),
            "x.npy: format version 4.0 is not supported (1.0 and 2.0 are)");
  EXPECT_EQ(error_of({'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0}),
            "x.npy: not a .npy file (it does not start with \\x93NUMPY)");
  std::vector<uint8_t> short_header = npy_bytes(1, "{'descr': '<f4'}", {});
  short_header[8] = 200;  // claims a 200-byte header
  EXPECT_EQ(error_of(short_header),
            "x.npy: truncated: the header needs 210 bytes, the file has 26");
  EXPECT_EQ(error_of(npy_bytes(1, "{'descr': '<f4', 'shape': (1,)}\n", le32({0}))),
            "x.npy: malformed header: 'descr', 'fortran_order' and 'shape' are all required");
  EXPECT_EQ(error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [1], }\n",
                               le32({0}))),
            "x.npy: malformed header: 'shape' must be a tuple");
}

TEST(Npy, EncodeWritesWhatTheFormatSays) {
  NpyArray a;
  a.descr = "<u2";
  a.itemsize = 2;
  a.shape = {2, 1};
  a.data = {0x80, 0x3f, 0x00, 0xc0};
  const std::vector<uint8_t> b = encode_npy(a);
  ASSERT_GE(b.size(), 10u);
  EXPECT_EQ(std::memcmp(b.data(), "\x93NUMPY\x01\x00", 8), 0);
  const std::size_t header_len = b[8] | (b[9] << 8);
  // The data starts 64-byte aligned, after a header that ends in a newline.
  EXPECT_EQ((10 + header_len) % 64, 0u);
  EXPECT_EQ(b[10 + header_len - 1], '\n');
  const std::string header(b.begin() + 10,
                           b.begin() + 10 + static_cast<std::ptrdiff_t>(header_len));
  EXPECT_EQ(header.rfind("{'descr': '<u2', 'fortran_order': False, 'shape': (2, 1), }", 0), 0u)
      << header;
  EXPECT_EQ(std::vector<uint8_t>(b.end() - 4, b.end()), a.data);
  // And it reads back.
  auto back = parse_npy(b, "y.npy", nullptr);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->shape, a.shape);
  EXPECT_EQ(back->data, a.data);
  // A 1-D shape is written as a one-element tuple.
  a.shape = {4};
  const std::vector<uint8_t> c = encode_npy(a);
  EXPECT_NE(std::string(c.begin(), c.end()).find("'shape': (4,)"), std::string::npos);
}

TEST(Npy, ReadsTheExampleFileAndFileErrorsNameThePath) {
  std::string err;
  auto a = read_npy(GPSIMD_SOURCE_DIR "/examples/data/sort_keys.npy", &err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(a->descr, "<f4");
  EXPECT_EQ(a->shape, (std::vector<uint64_t>{2, 8}));
  float first;
  std::memcpy(&first, a->data.data() + 4 * 2, 4);
  EXPECT_EQ(first, 3.25f);  // row 0, element 2

  EXPECT_FALSE(read_npy("no/such/file.npy", &err));
  EXPECT_EQ(err, "no/such/file.npy: cannot open the file: No such file or directory");

  const std::string path = GPSIMD_BINARY_DIR "/asm_npy_test_roundtrip.npy";
  NpyArray b;
  b.descr = "<i4";
  b.itemsize = 4;
  b.shape = {1, 2};
  b.data = le32({0xffffffffu, 7});
  ASSERT_TRUE(write_npy(path, b, &err)) << err;
  auto c = read_npy(path, &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->data, b.data);
  std::filesystem::remove(path);
}

TEST(Npy, DescrOfDtypes) {
  EXPECT_EQ(npy_descr(Dtype::FP32), "<f4");
  EXPECT_EQ(npy_descr(Dtype::FP32R), "<f4");
  EXPECT_EQ(npy_descr(Dtype::FP16), "<f2");
  EXPECT_EQ(npy_descr(Dtype::BF16), "<u2");  // bit patterns: NumPy has no bfloat16
  EXPECT_EQ(npy_descr(Dtype::FP8_E4), "|u1");
  EXPECT_EQ(npy_descr(Dtype::INT8), "|i1");
  EXPECT_EQ(npy_descr(Dtype::INT32), "<i4");
  EXPECT_EQ(npy_descr(Dtype::UINT32), "<u4");
  EXPECT_FALSE(npy_descr(Dtype::INT64));
  EXPECT_FALSE(npy_descr(Dtype::FP4_E2));
}

}  // namespace
}  // namespace gpsimd
