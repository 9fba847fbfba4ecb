// `import hoist`: the pybind11 module (docs/API.md, "Python"). Every call that loads,
// discovers or lifts releases the GIL while Hoist works, so threads lift in parallel; errors
// are hoist.Error carrying the message the command line prints.
#include "Facade.h"

#include "hoist/Version.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>

namespace py = pybind11;
using namespace hoist::python;

namespace {

/// Raised as hoist.Error (a RuntimeError).
struct HoistError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <typename T> T valueOrThrow(Outcome<T> outcome) {
  if (auto *failure = std::get_if<Failure>(&outcome))
    throw HoistError(failure->message);
  return std::move(std::get<T>(outcome));
}

std::string addressText(uint64_t address) {
  char text[32];
  snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

/// A function as Python names it: an int address, a name or "0x..." string, or a list of them.
std::vector<std::string> functionSpecs(const py::object &functions) {
  std::vector<std::string> specs;
  if (functions.is_none())
    return specs;
  auto add = [&](const py::handle &one) {
    if (py::isinstance<py::int_>(one))
      specs.push_back(addressText(one.cast<uint64_t>()));
    else if (py::isinstance<py::str>(one))
      specs.push_back(one.cast<std::string>());
    else
      throw py::type_error("a function is an int address or a str (a name or '0x...')");
  };
  if (py::isinstance<py::int_>(functions) || py::isinstance<py::str>(functions))
    add(functions);
  else
    for (const py::handle &one : functions)
      add(one);
  return specs;
}

py::dict diagnosticDict(const DiagnosticRecord &d) {
  py::dict out;
  out["severity"] = d.severity;
  out["code"] = d.code;
  out["address"] = d.address ? py::object(py::int_(*d.address)) : py::none();
  out["message"] = d.message;
  return out;
}

py::list diagnosticList(const std::vector<DiagnosticRecord> &diagnostics) {
  py::list out;
  for (const DiagnosticRecord &d : diagnostics)
    out.append(diagnosticDict(d));
  return out;
}


const char *symbolKindName(hoist::Symbol::Kind kind) {
  switch (kind) {
  case hoist::Symbol::Kind::Function:
    return "function";
  case hoist::Symbol::Kind::Object:
    return "object";
  case hoist::Symbol::Kind::Other:
    return "other";
  }
  return "other";
}

const char *symbolSourceName(hoist::Symbol::Source source) {
  switch (source) {
  case hoist::Symbol::Source::Static:
    return "static";
  case hoist::Symbol::Source::Dynamic:
    return "dynamic";
  case hoist::Symbol::Source::Coff:
    return "coff";
  }
  return "static";
}

void bindImageTypes(py::module_ &m) {
  py::class_<hoist::Section>(m, "Section")
      .def_readonly("name", &hoist::Section::name)
      .def_readonly("address", &hoist::Section::address)
      .def_readonly("size", &hoist::Section::size)
      .def_readonly("file_offset", &hoist::Section::fileOffset)
      .def_readonly("file_size", &hoist::Section::fileSize)
      .def_readonly("readable", &hoist::Section::readable)
      .def_readonly("writable", &hoist::Section::writable)
      .def_readonly("executable", &hoist::Section::executable)
      .def_readonly("mapped", &hoist::Section::mapped)
      .def("__repr__", [](const hoist::Section &s) {
        return "<hoist.Section " + s.name + " at " + addressText(s.address) + ">";
      });
  py::class_<hoist::Symbol>(m, "Symbol")
      .def_readonly("name", &hoist::Symbol::name)
      .def_readonly("address", &hoist::Symbol::address)
      .def_readonly("size", &hoist::Symbol::size)
      .def_property_readonly("kind",
                             [](const hoist::Symbol &s) { return symbolKindName(s.kind); })
      .def_property_readonly("source",
                             [](const hoist::Symbol &s) { return symbolSourceName(s.source); })
      .def_readonly("ifunc", &hoist::Symbol::indirect)
      .def("__repr__", [](const hoist::Symbol &s) {
        return "<hoist.Symbol " + s.name + " at " + addressText(s.address) + ">";
      });
  py::class_<hoist::Import>(m, "Import")
      .def_readonly("name", &hoist::Import::name)
      .def_readonly("library", &hoist::Import::library)
      .def_readonly("slot", &hoist::Import::slotAddress)
      .def_readonly("stub", &hoist::Import::stubAddress)
      .def_readonly("defined_at", &hoist::Import::definedAt)
      .def("__repr__", [](const hoist::Import &i) {
        return "<hoist.Import " + (i.library.empty() ? "" : i.library + "!") + i.name + ">";
      });
  py::class_<hoist::Export>(m, "Export")
      .def_readonly("name", &hoist::Export::name)
      .def_readonly("address", &hoist::Export::address)
      .def_readonly("forwarder", &hoist::Export::forwarder)
      .def("__repr__", [](const hoist::Export &e) { return "<hoist.Export " + e.name + ">"; });
}

void bindControlFlowTypes(py::module_ &m) {
  py::class_<hoist::CfgBlock>(m, "Block")
      .def_readonly("start", &hoist::CfgBlock::start)
      .def_readonly("end", &hoist::CfgBlock::end)
      .def_readonly("successors", &hoist::CfgBlock::successors)
      .def("__repr__", [](const hoist::CfgBlock &b) {
        return "<hoist.Block " + addressText(b.start) + "-" + addressText(b.end) + ">";
      });
  py::class_<hoist::CfgPart>(m, "Part")
      .def_readonly("start", &hoist::CfgPart::start)
      .def_readonly("end", &hoist::CfgPart::end)
      .def_readonly("name", &hoist::CfgPart::name)
      .def("__repr__", [](const hoist::CfgPart &p) {
        return "<hoist.Part " + p.name.value_or("-") + " at " + addressText(p.start) + "-" +
               addressText(p.end) + ">";
      });
  py::class_<hoist::CfgIndirectJump>(m, "IndirectJump")
      .def_readonly("jump", &hoist::CfgIndirectJump::jump)
      .def_readonly("table", &hoist::CfgIndirectJump::table)
      .def_readonly("targets", &hoist::CfgIndirectJump::targets)
      .def_readonly("import_", &hoist::CfgIndirectJump::import);
  py::class_<hoist::CfgUnresolvedJump>(m, "UnresolvedJump")
      .def_readonly("jump", &hoist::CfgUnresolvedJump::jump)
      .def_readonly("reason", &hoist::CfgUnresolvedJump::reason);
  py::class_<hoist::CfgCall>(m, "Call")
      .def_readonly("at", &hoist::CfgCall::at)
      .def_readonly("target", &hoist::CfgCall::target)
      .def_readonly("import_", &hoist::CfgCall::import);
  py::class_<hoist::CfgFunction>(m, "Function")
      .def_readonly("entry", &hoist::CfgFunction::entry)
      .def_readonly("name", &hoist::CfgFunction::name)
      .def_readonly("reasons", &hoist::CfgFunction::reasons)
      .def_readonly("noreturn", &hoist::CfgFunction::noreturn)
      .def_readonly("ifunc_resolver", &hoist::CfgFunction::ifuncResolver)
      .def_readonly("blocks", &hoist::CfgFunction::blocks)
      .def_readonly("parts", &hoist::CfgFunction::parts)
      .def_readonly("jump_tables", &hoist::CfgFunction::jumpTables)
      .def_readonly("computed_jumps", &hoist::CfgFunction::computedJumps)
      .def_readonly("unresolved_jumps", &hoist::CfgFunction::unresolvedJumps)
      .def_readonly("calls", &hoist::CfgFunction::calls)
      .def_readonly("tail_calls", &hoist::CfgFunction::tailCalls)
      .def("__repr__", [](const hoist::CfgFunction &f) {
        return "<hoist.Function " + f.name.value_or("-") + " at " + addressText(f.entry) +
               ", " + std::to_string(f.blocks.size()) + " blocks>";
      });
  py::class_<CfgRecord>(m, "Cfg")
      .def_property_readonly("functions", [](const CfgRecord &c) { return c.flow.functions; })
      .def_property_readonly("rounds", [](const CfgRecord &c) { return c.flow.rounds; })
      .def_property_readonly("budget_exhausted",
                             [](const CfgRecord &c) { return c.flow.budgetExhausted; })
      .def_property_readonly("diagnostics",
                             [](const CfgRecord &c) { return diagnosticList(c.diagnostics); })
      .def(
          "function",
          [](const CfgRecord &c, uint64_t entry) -> py::object {
            for (const hoist::CfgFunction &f : c.flow.functions)
              if (f.entry == entry)
                return py::cast(f);
            return py::none();
          },
          py::arg("entry"), "The function discovered at `entry`, or None.");
}

void bindResults(py::module_ &m) {
  py::class_<LiftRecord>(m, "Lifted")
      .def_property_readonly("ir", [](const LiftRecord &l) -> py::object {
        if (l.bitcode)
          return py::none();
        return py::str(l.ir);
      })
      .def_property_readonly("bitcode", [](const LiftRecord &l) -> py::object {
        if (!l.bitcode)
          return py::none();
        return py::bytes(l.ir);
      })
      .def_property_readonly("stats", [](const LiftRecord &l) {
        py::dict stats;
        stats["instructions_lifted"] = l.stats.instructions;
        stats["blocks"] = l.stats.blocks;
        stats["functions"] = l.stats.functions;
        stats["unsupported"] = l.stats.unsupported;
        return stats;
      })
      .def_property_readonly("diagnostics",
                             [](const LiftRecord &l) { return diagnosticList(l.diagnostics); })
      .def("__str__", [](const LiftRecord &l) { return l.ir; });
}

std::string brightenArgument(const py::object &brighten) {
  if (py::isinstance<py::bool_>(brighten))
    return brighten.cast<bool>() ? "default" : "";
  if (py::isinstance<py::str>(brighten))
    return brighten.cast<std::string>();
  throw py::type_error("brighten is a bool or 'sysv' or 'win64'");
}

} // namespace

PYBIND11_MODULE(hoist, m) {
  m.doc() = "Hoist: x86-64 machine code (ELF, PE) lifted to LLVM IR (docs/API.md)";
  m.attr("__version__") = HOIST_VERSION_STRING;
  m.attr("llvm_version") = hoist::llvmVersion();
  m.attr("zydis_version") = hoist::zydisVersion();
  py::register_exception<HoistError>(m, "Error", PyExc_RuntimeError);
  bindImageTypes(m);
  bindControlFlowTypes(m);
  bindResults(m);

  py::class_<Binary, std::shared_ptr<Binary>>(m, "Binary")
      .def_property_readonly("path", &Binary::path)
      .def_property_readonly("format", &Binary::format)
      .def_property_readonly("kind", &Binary::kind)
      .def_property_readonly("entry", &Binary::entry)
      .def_property_readonly("image_base", &Binary::imageBase)
      .def_property_readonly("sections", &Binary::sections)
      .def_property_readonly("symbols", &Binary::symbols)
      .def_property_readonly("imports", &Binary::imports)
      .def_property_readonly("exports", &Binary::exports)
      .def(
          "cfg",
          [](const Binary &binary, const py::object &functions, bool all,
             std::optional<double> timeout) {
            CfgArguments arguments{functionSpecs(functions), all, timeout};
            Outcome<CfgRecord> outcome = [&] {
              py::gil_scoped_release release;
              return binary.cfg(arguments);
            }();
            return valueOrThrow(std::move(outcome));
          },
          py::arg("functions") = py::none(), py::arg("all") = false,
          py::arg("timeout") = py::none(),
          "The control flow discovery recovers from `functions` (int addresses or names; "
          "default main, else the entry point), or from every function start with all=True.")
      .def(
          "lift",
          [](const Binary &binary, const py::object &function, unsigned opt,
             const py::object &brighten, bool deobfuscate, bool bitcode, bool callees, bool all,
             std::optional<double> timeout) {
            LiftArguments arguments;
            arguments.functions = functionSpecs(function);
            arguments.optLevel = opt;
            arguments.brighten = brightenArgument(brighten);
            arguments.deobfuscate = deobfuscate;
            arguments.bitcode = bitcode;
            arguments.callees = callees;
            arguments.all = all;
            arguments.timeoutSeconds = timeout;
            Outcome<LiftRecord> outcome = [&] {
              py::gil_scoped_release release;
              return binary.lift(arguments);
            }();
            return valueOrThrow(std::move(outcome));
          },
          py::arg("function") = py::none(), py::arg("opt") = 2, py::arg("brighten") = false,
          py::arg("deobfuscate") = false, py::arg("bitcode") = false,
          py::arg("callees") = true, py::arg("all") = false, py::arg("timeout") = py::none(),
          "Lifts `function` (an int address, a name, or a list; default main, else the entry "
          "point) and what it calls, as `hoist lift` does: opt 0-3, brighten True/'sysv'/"
          "'win64', deobfuscate as --deobfuscate. Returns a hoist.Lifted.")
      .def("__repr__", [](const Binary &b) { return "<hoist.Binary " + b.path() + ">"; });

  m.def(
      "load",
      [](const std::string &path, std::optional<uint64_t> rawBase) {
        Outcome<std::shared_ptr<Binary>> outcome = [&] {
          py::gil_scoped_release release;
          return Binary::load(path, rawBase);
        }();
        return valueOrThrow(std::move(outcome));
      },
      py::arg("path"), py::arg("raw_base") = py::none(),
      "Loads an ELF or PE file (or raw code mapped at raw_base).");
}
