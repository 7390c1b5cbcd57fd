// The assembly language for the extension (include/gpsimd/asm.h): assemble(),
// disassemble(), and running a program text (its setup directives, then its words) on a
// machine. Errors come back as values, and the gpsimd package raises them.
#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.h"
#include "gpsimd/asm.h"

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

}  // namespace

void bind_asm(py::module_& m) {
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
        Prepare prepare = [&p, &base_dir](Machine& mm) -> std::optional<std::string> {
          if (p.nc && *p.nc != mm.generation())
            return fmt::format("{}: the program is for {} (.nc), the machine is {}", p.file,
                               generation_name(*p.nc), generation_name(mm.generation()));
          return apply_setup(p, mm, base_dir);
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
