// .npy reading and writing (NumPy format versions 1.0 and 2.0; see the NumPy
// "NEP 1" format description): a magic string, a version, a header length, a Python
// dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}, then the data.
#include "gpsimd/npy.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "common/names.h"

namespace gpsimd {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;

struct Supported {
  std::string_view descr;
  unsigned itemsize;
};
// The accepted type strings; '<' and '|' spellings of the one-byte types are both
// accepted on input, '|' is written.
constexpr Supported kSupported[] = {
    {"<f4", 4}, {"<f2", 2}, {"<u2", 2}, {"<i2", 2}, {"|u1", 1},
    {"|i1", 1}, {"<u4", 4}, {"<i4", 4}, {"<u1", 1}, {"<i1", 1},
};

// A tiny reader for the header dict, which NumPy writes as a Python literal.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view s) : s_(s) {}

  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::optional<std::string> string() {
    skip_ws();
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) return std::nullopt;
    const char q = s_[pos_++];
    const std::size_t end = s_.find(q, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string out(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }
  std::optional<std::string> word() {
    skip_ws();
    std::size_t b = pos_;
    while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (b == pos_) return std::nullopt;
    return std::string(s_.substr(b, pos_ - b));
  }
  std::optional<uint64_t> integer() {
    skip_ws();
    std::size_t b = pos_;
    uint64_t v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      if (v > (~uint64_t{0} - 9) / 10) return std::nullopt;
      v = v * 10 + static_cast<uint64_t>(s_[pos_] - '0');
      ++pos_;
    }
    if (b == pos_) return std::nullopt;
    if (pos_ < s_.size() && (s_[pos_] == 'L' || s_[pos_] == 'l')) ++pos_;  // Python 2 longs
    return v;
  }
  bool at_end() {
    skip_ws();
    return pos_ >= s_.size();
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

uint64_t NpyArray::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

std::optional<std::string_view> npy_descr(Dtype dt) {
  // The narrow floats without a NumPy type are their bits: BF16 as <u2, FP8 as |u1.
  static constexpr Named<Dtype> kDescrs[] = {
      {Dtype::FP32, "<f4"},   {Dtype::FP32R, "<f4"},  {Dtype::FP16, "<f2"},  {Dtype::BF16, "<u2"},
      {Dtype::UINT16, "<u2"}, {Dtype::INT16, "<i2"},  {Dtype::UINT8, "|u1"}, {Dtype::FP8_E3, "|u1"},
      {Dtype::FP8_E4, "|u1"}, {Dtype::FP8_E5, "|u1"}, {Dtype::INT8, "|i1"},  {Dtype::UINT32, "<u4"},
      {Dtype::INT32, "<i4"},
  };
  if (const Named<Dtype>* r = find_row(kDescrs, dt)) return r->name;
  return std::nullopt;
}

std::optional<NpyArray> parse_npy(std::span<const uint8_t> bytes, std::string_view name,
                                  std::string* error) {
  auto fail = [&](const std::string& what) -> std::optional<NpyArray> {
    if (error) *error = fmt::format("{}: {}", name, what);
    return std::nullopt;
  };
  if (bytes.size() < kMagicLen + 2 || std::memcmp(bytes.data(), kMagic, kMagicLen) != 0)
    return fail("not a .npy file (it does not start with \\x93NUMPY)");
  const unsigned major = bytes[6], minor = bytes[7];
  std::size_t header_len = 0, data_start = 0;
  if (major == 1) {
    if (bytes.size() < 10) return fail("truncated: the header length is missing");
    header_len = bytes[8] | (std::size_t{bytes[9]} << 8);
    data_start = 10 + header_len;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return fail("truncated: the header length is missing");
    header_len = bytes[8] | (std::size_t{bytes[9]} << 8) | (std::size_t{bytes[10]} << 16) |
                 (std::size_t{bytes[11]} << 24);
    data_start = 12 + header_len;
  } else {
    return fail(
        fmt::format("format version {}.{} is not supported (1.0 and 2.0 are)", major, minor));
  }
  if (data_start > bytes.size())
    return fail(fmt::format("truncated: the header needs {} bytes, the file has {}", data_start,
                            bytes.size()));
  const std::string_view header(
      reinterpret_cast<const char*>(bytes.data()) + data_start - header_len, header_len);

  HeaderParser p(header);
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<std::vector<uint64_t>> shape;
  if (!p.eat('{')) return fail("malformed header: expected a dict");
  while (!p.eat('}')) {
    auto key = p.string();
    if (!key || !p.eat(':')) return fail("malformed header: expected 'key': value");
    if (*key == "descr") {
      descr = p.string();
      if (!descr) return fail("malformed header: 'descr' must be a type string such as '<f4'");
    } else if (*key == "fortran_order") {
      auto w = p.word();
      if (w != "True" && w != "False")
        return fail("malformed header: 'fortran_order' must be True or False");
      fortran = *w == "True";
    } else if (*key == "shape") {
      if (!p.eat('(')) return fail("malformed header: 'shape' must be a tuple");
      std::vector<uint64_t> dims;
      while (!p.eat(')')) {
        auto d = p.integer();
        if (!d) return fail("malformed header: 'shape' must hold non-negative integers");
        dims.push_back(*d);
        if (!p.eat(',')) {
          if (!p.eat(')')) return fail("malformed header: 'shape' must be a tuple");
          break;
        }
      }
      shape = std::move(dims);
    } else {
      return fail(fmt::format("malformed header: unexpected key '{}'", *key));
    }
    if (!p.eat(',')) {
      if (!p.eat('}')) return fail("malformed header: expected ',' or '}'");
      break;
    }
  }
  if (!descr || !fortran || !shape)
    return fail("malformed header: 'descr', 'fortran_order' and 'shape' are all required");
  if (*fortran)
    return fail(
        "Fortran-order arrays are not supported; save a C-order array "
        "(numpy.ascontiguousarray)");
  if (!descr->empty() && descr->front() == '>')
    return fail(
        fmt::format("big-endian type '{}' is not supported; save it little-endian "
                    "(astype('<{}'))",
                    *descr, descr->substr(1)));
  const Supported* sup = nullptr;
  for (const Supported& s : kSupported)
    if (s.descr == *descr || (s.itemsize == 1 && descr->size() == 2 && s.descr.substr(1) == *descr))
      sup = &s;
  if (sup == nullptr)
    return fail(
        fmt::format("element type '{}' is not supported (use <f4 <f2 <u2 <i2 |u1 |i1 "
                    "<u4 <i4)",
                    *descr));

  NpyArray a;
  a.descr = sup->itemsize == 1 ? "|" + std::string(sup->descr.substr(1)) : std::string(sup->descr);
  a.itemsize = sup->itemsize;
  a.shape = std::move(*shape);
  uint64_t count = 1;
  for (uint64_t d : a.shape) {
    if (d != 0 && count > kNpyMaxBytes / d)
      return fail(fmt::format("the array is too large (more than {} bytes)", kNpyMaxBytes));
    count *= d;
  }
  const uint64_t nbytes = count * a.itemsize;
  if (nbytes > kNpyMaxBytes)
    return fail(
        fmt::format("the array is too large ({} bytes, the limit is {})", nbytes, kNpyMaxBytes));
  const uint64_t have = bytes.size() - data_start;
  if (have < nbytes)
    return fail(
        fmt::format("truncated: the shape needs {} data bytes, the file has {}", nbytes, have));
  if (have > nbytes)
    return fail(
        fmt::format("{} bytes of trailing data after the array's {}", have - nbytes, nbytes));
  a.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_start), bytes.end());
  return a;
}

std::optional<NpyArray> read_npy(const std::string& path, std::string* error) {
  errno = 0;
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    if (error)
      *error = fmt::format("{}: cannot open the file: {}", path,
                           std::strerror(errno != 0 ? errno : ENOENT));
    return std::nullopt;
  }
  f.seekg(0, std::ios::end);
  const std::streamoff size = f.tellg();
  if (size < 0 || static_cast<uint64_t>(size) > kNpyMaxBytes + 65536) {
    if (error)
      *error = fmt::format("{}: the file is too large (the limit is {} bytes of data)", path,
                           kNpyMaxBytes);
    return std::nullopt;
  }
  f.seekg(0);
  std::vector<uint8_t> bytes(static_cast<std::size_t>(size));
  f.read(reinterpret_cast<char*>(bytes.data()), size);
  if (!f) {
    if (error)
      *error = fmt::format("{}: cannot read the file: {}", path,
                           std::strerror(errno != 0 ? errno : EIO));
    return std::nullopt;
  }
  return parse_npy(bytes, path, error);
}

std::vector<uint8_t> encode_npy(const NpyArray& a) {
  std::string shape;
  for (std::size_t i = 0; i < a.shape.size(); ++i)
    shape += fmt::format("{}{}", i ? ", " : "", a.shape[i]);
  if (a.shape.size() == 1) shape += ",";
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", a.descr, shape);
  // NumPy pads the header with spaces and a newline so the data starts 64-byte aligned.
  const std::size_t unpadded = kMagicLen + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> out(kMagic, kMagic + kMagicLen);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<uint8_t>(header.size()));
  out.push_back(static_cast<uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

bool write_npy(const std::string& path, const NpyArray& a, std::string* error) {
  const std::vector<uint8_t> bytes = encode_npy(a);
  // stdio, so that a failure carries the system's reason.
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f != nullptr;
  if (ok) {
    ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    ok = std::fclose(f) == 0 && ok;
  }
  if (!ok) {
    if (error)
      *error = fmt::format("{}: cannot write the file: {}", path,
                           std::strerror(errno != 0 ? errno : EIO));
    return false;
  }
  return true;
}

}  // namespace gpsimd
