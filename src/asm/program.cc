// Programs on a machine: the setup directives before a run (all checked and read before
// anything is written) and the dumps after it.
#include <fmt/format.h>

#include <filesystem>

#include "gpsimd/asm.h"

namespace gpsimd {
namespace {

struct MemWrite {
  Space space;
  unsigned partition;
  uint32_t offset;
  std::vector<uint8_t> bytes;
};

Space space_of(RegionKind k) {
  return k == RegionKind::PSUM ? Space::PSUM : Space::SBUF;
}

// Empty when `bytes` bytes at the region's offset fit in a partition of the machine.
std::string fit_problem(const Machine& m, const Region& r, uint64_t bytes) {
  const Space s = space_of(r.kind);
  const uint64_t size = m.partition_bytes(s);
  if (r.offset + bytes > size)
    return fmt::format(
        "{} bytes at offset {:#x} run past the end of the {} {} partition ({:#x} "
        "bytes)",
        bytes, r.offset, generation_name(m.generation()), space_def(s).upper, size);
  return {};
}

std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return "(" + s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

std::optional<std::string> apply_setup(const Program& p, Machine& m, const std::string& base_dir,
                                       Journal* journal) {
  std::vector<MemWrite> writes;
  for (std::size_t i = 0; i < p.setup.size(); ++i) {
    const int line = i < p.setup_lines.size() ? p.setup_lines[i] : 0;
    auto where = [&](std::string_view what) {
      return fmt::format("{}:{}: {}", p.file, line, what);
    };
    const SetupDirective& sd = p.setup[i];
    if (const auto* d = std::get_if<DataDirective>(&sd)) {
      const unsigned size = *dtype_size(d->dtype);
      const std::size_t per = d->values.size() / d->region.partitions;
      if (auto e = fit_problem(m, d->region, uint64_t{per} * size); !e.empty())
        return where(fmt::format(".data {}: {}", d->region.to_string(), e));
      for (unsigned r = 0; r < d->region.partitions; ++r) {
        MemWrite w{space_of(d->region.kind), d->region.partition + r, d->region.offset, {}};
        w.bytes.resize(per * size);
        for (std::size_t k = 0; k < per; ++k)
          for (unsigned b = 0; b < size; ++b)
            w.bytes[k * size + b] = static_cast<uint8_t>(d->values[r * per + k] >> (8 * b));
        writes.push_back(std::move(w));
      }
    } else if (const auto* l = std::get_if<LoadDirective>(&sd)) {
      std::filesystem::path path(l->path);
      if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
      std::string err;
      auto a = read_npy(path.string(), &err);
      if (!a) return where(fmt::format(".load: {}", err));
      const unsigned parts = l->region.partitions;
      uint64_t rows = 1;
      if (a->shape.size() == 2) {
        rows = a->shape[0];
      } else if (a->shape.size() > 2) {
        return where(
            fmt::format(".load: {} has shape {}: expected a 1-D array (one partition) "
                        "or a 2-D array (partitions x elements)",
                        path.string(), shape_text(a->shape)));
      }
      if (rows != parts)
        return where(fmt::format(
            ".load: {} has shape {} but {} has {} partition{}: expected "
            "{}",
            path.string(), shape_text(a->shape), l->region.to_string(), parts, parts > 1 ? "s" : "",
            parts == 1 ? "(M,) or (1, M)" : fmt::format("({}, M)", parts)));
      const std::size_t per = a->data.size() / parts;
      if (per == 0) return where(fmt::format(".load: {} holds no elements", path.string()));
      if (auto e = fit_problem(m, l->region, per); !e.empty())
        return where(fmt::format(".load {}: {}", l->region.to_string(), e));
      for (unsigned r = 0; r < parts; ++r) {
        MemWrite w{space_of(l->region.kind), l->region.partition + r, l->region.offset, {}};
        w.bytes.assign(a->data.begin() + static_cast<std::ptrdiff_t>(r * per),
                       a->data.begin() + static_cast<std::ptrdiff_t>((r + 1) * per));
        writes.push_back(std::move(w));
      }
    }
  }
  // Everything checked: now write, in directive order.
  std::size_t next_write = 0;
  for (const SetupDirective& sd : p.setup) {
    if (const auto* r = std::get_if<RegDirective>(&sd)) {
      m.registers[r->index] = r->value;
    } else if (const auto* s = std::get_if<SemDirective>(&sd)) {
      m.semaphores[s->index] = s->value;
    } else if (const auto* a = std::get_if<AccDirective>(&sd)) {
      for (unsigned k = 0; k < a->count; ++k) m.accumulators[a->first + k] = a->bits;
    } else {
      const Region& reg = std::holds_alternative<DataDirective>(sd)
                              ? std::get<DataDirective>(sd).region
                              : std::get<LoadDirective>(sd).region;
      for (unsigned k = 0; k < reg.partitions; ++k, ++next_write) {
        const MemWrite& w = writes[next_write];
        if (journal)
          journal->save(m, w.space, w.partition, w.offset,
                        w.offset + static_cast<uint32_t>(w.bytes.size()));
        auto part = m.partition(w.space, w.partition);
        std::copy(w.bytes.begin(), w.bytes.end(), part.begin() + w.offset);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::vector<DumpResult>> read_dumps(const Program& p, const Machine& m,
                                                  std::string* error) {
  std::vector<DumpResult> out;
  for (std::size_t i = 0; i < p.dumps.size(); ++i) {
    const DumpDirective& d = p.dumps[i];
    DumpResult r;
    r.directive = d;
    r.line = i < p.dump_lines.size() ? p.dump_lines[i] : 0;
    if (d.region.kind == RegionKind::MATCH) {
      r.array.descr = "<u4";
      r.array.itemsize = 4;
      r.array.shape = {d.region.partitions, kMatchDumpColumns};
      for (unsigned k = 0; k < d.region.partitions; ++k) {
        const MatchLane& l = m.match[d.region.partition + k];
        std::vector<uint32_t> row(l.mv.begin(), l.mv.end());
        row.push_back(l.matched);
        row.insert(row.end(), l.idx.begin(), l.idx.end());
        for (uint32_t v : row)
          for (unsigned b = 0; b < 4; ++b)
            r.array.data.push_back(static_cast<uint8_t>(v >> (8 * b)));
        r.values.push_back(std::move(row));
      }
      out.push_back(std::move(r));
      continue;
    }
    if (d.region.kind == RegionKind::ACC) {
      r.array.descr = "<f4";
      r.array.itemsize = 4;
      r.array.shape = {d.region.partitions};
      for (unsigned k = 0; k < d.region.partitions; ++k) {
        const uint32_t bits = m.accumulators[d.region.partition + k];
        r.values.push_back({bits});
        for (unsigned b = 0; b < 4; ++b)
          r.array.data.push_back(static_cast<uint8_t>(bits >> (8 * b)));
      }
      out.push_back(std::move(r));
      continue;
    }
    const unsigned size = *dtype_size(d.dtype);
    const uint64_t span = (uint64_t{d.count} - 1) * d.step * size + size;
    if (auto e = fit_problem(m, d.region, span); !e.empty()) {
      if (error)
        *error = fmt::format("{}:{}: .dump {}: {}", p.file, r.line, d.region.to_string(), e);
      return std::nullopt;
    }
    r.array.descr = std::string(*npy_descr(d.dtype));
    r.array.itemsize = size;
    r.array.shape = {d.region.partitions, d.count};
    for (unsigned k = 0; k < d.region.partitions; ++k) {
      auto part = m.partition(space_of(d.region.kind), d.region.partition + k);
      std::vector<uint32_t> row(d.count);
      for (uint32_t e = 0; e < d.count; ++e) {
        uint32_t v = 0;
        for (unsigned b = 0; b < size; ++b) {
          const uint8_t byte = part[d.region.offset + uint64_t{e} * d.step * size + b];
          v |= static_cast<uint32_t>(byte) << (8 * b);
          r.array.data.push_back(byte);
        }
        row[e] = v;
      }
      r.values.push_back(std::move(row));
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace gpsimd
