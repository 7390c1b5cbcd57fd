// The assembly language for the extension (include/gpsimd/asm.h): assemble(),
// disassemble(), and running a program text (its setup directives, then its words) on a
// machine. Errors come back as values, and the gpsimd package raises them.
#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "bindings.h"
#include "gpsimd/asm.h"
#include "gpsimd/program.h"

namespace py = pybind11;

namespace gpsimd::python {
namespace {

py::tuple error_tuple(const AsmError& e, std::string_view text) {
  return py::make_tuple(e.file, e.line, e.column, e.token, e.message, e.to_string(),
                        format_asm_error(e, text));
}

// Every error of a text: (list of error tuples, truncated, the whole report).
py::tuple errors_tuple(const AsmErrors& errors, std::string_view text) {
  py::list list;
  for (const AsmError& e : errors.errors) list.append(error_tuple(e, text));
  return py::make_tuple(list, errors.truncated, errors.to_string(text));
}

// ---- programs of queues (SPEC §8) --------------------------------------------------------

// A word of a program: {"queue": "pool", "index": 0}, and for a text "source": "file:line".
using SourceOf = std::function<std::optional<std::string>(const QueueWord&)>;
py::dict word_dict(const QueueWord& w, const SourceOf& source) {
  py::dict d;
  d["queue"] = std::string(engine_id(w.queue));
  d["index"] = w.index;
  if (source)
    if (auto s = source(w)) d["source"] = *s;
  return d;
}

// The result of run_queues as the keys of SPEC §8.8's `expect` (numbers as Python ints).
py::dict queue_run_dict(const QueueRun& r, const SourceOf& source) {
  py::dict d;
  d["status"] = std::string(program_status_name(r.status));
  py::list schedule, acquired;
  for (const ScheduleStep& s : r.schedule) {
    schedule.append(s.word.to_string());
    acquired.append(s.acquired ? py::object(py::str(s.acquired->to_string())) : py::none());
  }
  d["schedule"] = schedule;
  d["acquired"] = acquired;
  if (r.race) {
    const auto side = [&](const RaceAccess& a) {
      py::dict x = word_dict(a.word, source);
      x["access"] = std::string(access_name(a.access));
      return x;
    };
    py::dict loc;
    loc["space"] = std::string(location_space_name(r.race->location.space));
    loc["partition"] = r.race->location.partition;
    if (location_space_def(r.race->location.space).memory) loc["offset"] = r.race->location.offset;
    py::dict race;
    race["first"] = side(r.race->first);
    race["second"] = side(r.race->second);
    race["location"] = loc;
    d["race"] = race;
  } else {
    d["race"] = py::none();
  }
  d["races_checked"] = r.races_checked;
  py::list hazards;
  for (const SyncHazard& h : r.sync_hazards) {
    py::dict x;
    x["semaphore"] = h.semaphore;
    x["kind"] = std::string(hazard_name(h.kind));
    hazards.append(x);
  }
  d["sync_hazards"] = hazards;
  py::list blocked;
  for (const BlockedHead& b : r.blocked) {
    py::dict x = word_dict(b.word, source);
    x["wait"] = b.wait == WaitMode::EQ ? "EQ" : "GE";
    x["semaphore"] = b.semaphore;
    x["value"] = b.value;
    x["current"] = b.current;
    blocked.append(x);
  }
  d["blocked"] = blocked;
  if (r.fault) {
    py::dict x = word_dict(r.fault->word, source);
    x["kind"] = std::string(fault_name(r.fault->fault.kind));
    x["detail"] = r.fault->fault.detail;
    d["fault"] = x;
  } else {
    d["fault"] = py::none();
  }
  py::list invalid;
  for (const InvalidWord& w : r.invalid) {
    py::dict x = word_dict(w.word, source);
    py::list clauses;
    for (const Diagnostic& g : w.diagnostics) clauses.append(g.clause);
    x["violations"] = clauses;
    x["diagnostics"] = w.diagnostics;
    invalid.append(x);
  }
  d["invalid"] = invalid;
  return d;
}

QueueRun run_queues_nogil(Machine& m, const QueueProgram& p, bool fast, bool detect_races,
                          const Prepare& prepare, std::optional<std::string>* prepare_error) {
  py::gil_scoped_release release;
  if (prepare) {
    *prepare_error = prepare(m, nullptr);
    if (*prepare_error) return {};
  }
  QueueRunOptions o;
  o.fast = fast;
  o.detect_races = detect_races;
  return run_queues(m, p, o);
}

}  // namespace

void bind_asm(py::module_& m) {
  // Runs a program of queues (SPEC §8) on a machine whose state is its initial state:
  // `queues` holds the words of each engine's queue, in kEngines' order (lists of 64-byte
  // bytes). Returns the
  // result dict of queue_run_dict; the machine is left in the final state of SPEC §8.4.
  m.def(
      "_run_queues",
      [](Machine& machine, const std::array<std::vector<py::bytes>, kEngineCount>& queues,
         bool strict, bool fast, bool detect_races) -> py::dict {
        QueueProgram p;
        p.strict = strict;
        for (std::size_t e = 0; e < kEngineCount; ++e)
          for (const py::bytes& w : queues[e]) p.queues[e].push_back(word_from_bytes(w));
        std::optional<std::string> unused;
        return queue_run_dict(run_queues_nogil(machine, p, fast, detect_races, {}, &unused), {});
      },
      py::arg("machine"), py::arg("queues"), py::arg("strict"), py::arg("fast"),
      py::arg("detect_races"));

  // The same for a program text with `.queue` directives (SPEC §8.9): `.nc` must name the
  // machine's generation, the setup directives are applied first. Returns (assembly errors
  // as assemble's, None, None), (None, the setup error, None) or (None, None, the result).
  m.def(
      "_run_queue_text",
      [](Machine& machine, const std::string& text, const std::string& file,
         const std::string& base_dir, bool strict, bool fast, bool detect_races) -> py::tuple {
        AsmErrors err;
        std::optional<Program> program;
        {
          py::gil_scoped_release release;
          program = parse_program(text, file, &err);
        }
        if (!program) return py::make_tuple(errors_tuple(err, text), py::none(), py::none());
        const Program& p = *program;
        if (!p.queued)
          return py::make_tuple(
              py::none(),
              fmt::format("{}: not a program of queues: the text has no .queue directive "
                          "(Machine.run runs a stream)",
                          p.file),
              py::none());
        Prepare prepare = [&p, &base_dir](Machine& mm,
                                          Journal* journal) -> std::optional<std::string> {
          if (p.nc && *p.nc != mm.generation())
            return fmt::format("{}: the program is for {} (.nc), the machine is {}", p.file,
                               generation_name(*p.nc), generation_name(mm.generation()));
          return apply_setup(p, mm, base_dir, journal);
        };
        std::vector<QueueWord> where;
        const QueueProgram qp = queue_program(p, strict, &where);
        std::array<std::vector<std::size_t>, kEngineCount> file_index;
        for (std::size_t i = 0; i < where.size(); ++i)
          file_index[static_cast<std::size_t>(where[i].queue)].push_back(i);
        std::optional<std::string> setup_error;
        const QueueRun r = run_queues_nogil(machine, qp, fast, detect_races, prepare, &setup_error);
        if (setup_error) return py::make_tuple(py::none(), *setup_error, py::none());
        const SourceOf source = [&](const QueueWord& w) -> std::optional<std::string> {
          const std::size_t i = file_index[static_cast<std::size_t>(w.queue)][w.index];
          if (i >= p.word_lines.size()) return std::nullopt;
          return fmt::format("{}:{}", p.file, p.word_lines[i]);
        };
        return py::make_tuple(py::none(), py::none(), queue_run_dict(r, source));
      },
      py::arg("machine"), py::arg("text"), py::arg("file"), py::arg("base_dir"), py::arg("strict"),
      py::arg("fast"), py::arg("detect_races"));

  // Returns (words, None) or (None, errors): errors is ([(file, line, column, token,
  // message, one-line text, text with the source line and caret)...], truncated, the
  // whole report), every error of the text up to kMaxAsmErrors.
  m.def(
      "assemble",
      [](const std::string& text, const std::string& file) -> py::tuple {
        AsmErrors err;
        std::optional<std::vector<Word>> words;
        {
          py::gil_scoped_release release;
          words = assemble(text, file, &err);
        }
        if (!words) return py::make_tuple(py::none(), errors_tuple(err, text));
        py::list out;
        for (const Word& w : *words) out.append(bytes_from_word(w));
        return py::make_tuple(out, py::none());
      },
      py::arg("text"), py::arg("file") = "<input>");

  // Returns the text of a word as `gpsimd dis` prints it: the canonical text, or
  // `.word 0x...  # unknown opcode 0xNN`.
  m.def(
      "disassemble",
      [](const py::bytes& w) -> py::str { return py::str(disassemble_any(word_from_bytes(w))); },
      py::arg("word"));

  // Runs a program text on a machine: `.nc` must name the machine's generation, the setup
  // directives are applied, then the words run (`.dump`s are left to the caller, who
  // reads the machine's views). Returns (assembly errors as assemble's, None, None, None) or
  // (None, the result of run_words, the source line of each word, the words).
  m.def(
      "_run_text",
      [](Machine& machine, const std::string& text, const std::string& file,
         const std::string& base_dir, bool strict, bool atomic, bool fast, const py::object& trace,
         const py::object& engine) -> py::tuple {
        const ExecOptions opts{strict, nullptr, fast, to_engine(engine, "Machine.run")};
        AsmErrors err;
        std::optional<Program> program;
        {
          py::gil_scoped_release release;
          program = parse_program(text, file, &err);
        }
        if (!program)
          return py::make_tuple(errors_tuple(err, text), py::none(), py::none(), py::none());
        const Program& p = *program;
        Prepare prepare = [&p, &base_dir](Machine& mm,
                                          Journal* journal) -> std::optional<std::string> {
          if (p.queued)
            return fmt::format(
                "{}: a program of queues (.queue, SPEC §8): run it with "
                "Machine.run_program",
                p.file);
          if (p.nc && *p.nc != mm.generation())
            return fmt::format("{}: the program is for {} (.nc), the machine is {}", p.file,
                               generation_name(*p.nc), generation_name(mm.generation()));
          return apply_setup(p, mm, base_dir, journal);
        };
        // The text's .engine directives give each word its engine input; engine= wins.
        const std::vector<std::optional<Engine>> engines =
            opts.engine ? std::vector<std::optional<Engine>>{} : p.word_engines;
        py::tuple result =
            run_words(machine, p.words, opts, atomic, prepare, trace, nullptr, engines);
        py::list words;
        for (const Word& w : p.words) words.append(bytes_from_word(w));
        return py::make_tuple(py::none(), result, p.word_lines, words);
      },
      py::arg("machine"), py::arg("text"), py::arg("file"), py::arg("base_dir"), py::arg("strict"),
      py::arg("atomic"), py::arg("fast"), py::arg("trace") = py::none(),
      py::arg("engine") = py::none());
}

}  // namespace gpsimd::python
