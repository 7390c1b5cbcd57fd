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

py::tuple error_tuple(const AsmError& e) {
  return py::make_tuple(e.file, e.line, e.column, e.token, e.message, e.to_string());
}

}  // namespace

void bind_asm(py::module_& m) {
  // Returns (words, None) or (None, (file, line, column, token, message, text)).
  m.def(
      "assemble",
      [](const std::string& text, const std::string& file) -> py::tuple {
        AsmError err;
        std::optional<std::vector<Word>> words;
        {
          py::gil_scoped_release release;
          words = assemble(text, file, &err);
        }
        if (!words) return py::make_tuple(py::none(), error_tuple(err));
        py::list out;
        for (const Word& w : *words) out.append(bytes_from_word(w));
        return py::make_tuple(out, py::none());
      },
      py::arg("text"), py::arg("file") = "<input>");

  // Returns the canonical text of a word, or None for an unknown opcode.
  m.def(
      "disassemble",
      [](const py::bytes& w) -> py::object {
        if (auto s = disassemble(word_from_bytes(w))) return py::str(*s);
        return py::none();
      },
      py::arg("word"));

  // Runs a program text on a machine: `.nc` must name the machine's generation, the setup
  // directives are applied, then the words run (`.dump`s are left to the caller, who
  // reads the machine's views). Returns (assembly error tuple, None, None, None) or
  // (None, the result of run_words, the source line of each word, the words).
  m.def(
      "_run_text",
      [](Machine& machine, const std::string& text, const std::string& file,
         const std::string& base_dir, bool strict, bool atomic, bool fast, const py::object& trace,
         py::handle engine) -> py::tuple {
        const std::optional<Engine> eng = to_engine(engine, "Machine.run");
        AsmError err;
        std::optional<Program> program;
        {
          py::gil_scoped_release release;
          program = parse_program(text, file, &err);
        }
        if (!program) return py::make_tuple(error_tuple(err), py::none(), py::none(), py::none());
        const Program& p = *program;
        Prepare prepare = [&p, &base_dir](Machine& mm) -> std::optional<std::string> {
          if (p.nc && *p.nc != mm.generation())
            return fmt::format("{}: the program is for {} (.nc), the machine is {}", p.file,
                               generation_name(*p.nc), generation_name(mm.generation()));
          return apply_setup(p, mm, base_dir);
        };
        py::tuple result = run_words(machine, p.words, ExecOptions{strict, nullptr, fast, eng},
                                     atomic, prepare, trace);
        py::list words;
        for (const Word& w : p.words) words.append(bytes_from_word(w));
        return py::make_tuple(py::none(), result, p.word_lines, words);
      },
      py::arg("machine"), py::arg("text"), py::arg("file"), py::arg("base_dir"), py::arg("strict"),
      py::arg("atomic"), py::arg("fast"), py::arg("trace") = py::none(),
      py::arg("engine") = py::none());
}

}  // namespace gpsimd::python
