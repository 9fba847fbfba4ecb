// The work behind the Python module, through Hoist's public API (include/hoist/Hoist.h).
#include "Facade.h"

#include "hoist/Hoist.h"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist::python {

struct Binary::Loaded {
  std::unique_ptr<Image> image;
};

namespace {

std::vector<DiagnosticRecord> records(const DiagnosticSink &diagnostics) {
  std::vector<DiagnosticRecord> out;
  for (const Diagnostic &d : diagnostics.all())
    out.push_back({severityName(d.severity), d.code, d.address, d.message});
  return out;
}

Failure failure(llvm::Error error) { return Failure{llvm::toString(std::move(error))}; }

/// The budgets of a call: the deadline of its timeout, if any.
LiftOptions budgets(std::optional<double> timeoutSeconds) {
  LiftOptions options;
  if (timeoutSeconds)
    options.deadline = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(*timeoutSeconds));
  return options;
}

Outcome<Brightening> brightening(const std::string &name) {
  if (name.empty())
    return Brightening::None;
  if (name == "default")
    return Brightening::FromFormat;
  if (name == "sysv")
    return Brightening::SysV;
  if (name == "win64")
    return Brightening::Win64;
  return Failure{"brighten must be True, False, 'sysv' or 'win64', not '" + name + "'"};
}

} // namespace

Binary::Binary(std::unique_ptr<Loaded> loaded) : loaded_(std::move(loaded)) {}
Binary::~Binary() = default;

Outcome<std::shared_ptr<Binary>> Binary::load(const std::string &path,
                                              std::optional<uint64_t> rawBase) {
  llvm::Expected<std::unique_ptr<Image>> image =
      rawBase ? Image::loadRaw(path, *rawBase) : Image::load(path);
  if (!image)
    return failure(image.takeError());
  auto loaded = std::make_unique<Loaded>();
  loaded->image = std::move(*image);
  return std::shared_ptr<Binary>(new Binary(std::move(loaded)));
}

std::string Binary::path() const { return loaded_->image->path().str(); }

std::string Binary::format() const {
  return llvm::StringRef(imageFormatName(loaded_->image->format())).lower();
}

std::string Binary::kind() const { return loaded_->image->kindDescription(); }
uint64_t Binary::entry() const { return loaded_->image->entryPoint(); }
uint64_t Binary::imageBase() const { return loaded_->image->imageBase(); }

const std::vector<Section> &Binary::sections() const { return loaded_->image->sections(); }
const std::vector<Symbol> &Binary::symbols() const { return loaded_->image->symbols(); }
const std::vector<Import> &Binary::imports() const { return loaded_->image->imports(); }
const std::vector<Export> &Binary::exports() const { return loaded_->image->exports(); }

Outcome<CfgRecord> Binary::cfg(const CfgArguments &arguments) const {
  const Image &image = *loaded_->image;
  llvm::Expected<std::vector<uint64_t>> roots = resolveFunctions(image, arguments.functions);
  if (!roots)
    return failure(roots.takeError());
  DiagnosticSink diagnostics;
  llvm::Expected<ControlFlow> flow = discoverControlFlow(
      image, *roots, arguments.all, budgets(arguments.timeoutSeconds), diagnostics);
  if (!flow)
    return failure(flow.takeError());
  return CfgRecord{std::move(*flow), records(diagnostics)};
}

Outcome<LiftRecord> Binary::lift(const LiftArguments &arguments) const {
  const Image &image = *loaded_->image;
  if (arguments.optLevel > 3)
    return Failure{"opt must be 0 to 3, not " + std::to_string(arguments.optLevel)};
  Outcome<Brightening> brighten = brightening(arguments.brighten);
  if (auto *error = std::get_if<Failure>(&brighten))
    return *error;
  llvm::Expected<std::vector<uint64_t>> functions = resolveFunctions(image, arguments.functions);
  if (!functions)
    return failure(functions.takeError());
  LiftRequest request;
  request.functions = std::move(*functions);
  request.all = arguments.all;
  request.callees = arguments.callees;
  request.optLevel = arguments.optLevel;
  request.brighten = std::get<Brightening>(brighten);
  request.deobfuscate = arguments.deobfuscate;
  request.lift = budgets(arguments.timeoutSeconds);

  // A context per call: calls on several threads share nothing but the image.
  llvm::LLVMContext context;
  context.setDiscardValueNames(true);
  DiagnosticSink diagnostics;
  llvm::Expected<LiftedProgram> lifted = liftProgram(image, context, request, diagnostics);
  if (!lifted)
    return failure(lifted.takeError());
  LiftRecord out;
  out.bitcode = arguments.bitcode;
  llvm::raw_string_ostream stream(out.ir);
  if (arguments.bitcode)
    llvm::WriteBitcodeToFile(*lifted->module, stream);
  else
    lifted->module->print(stream, nullptr);
  stream.flush();
  const LiftStats &stats = lifted->stats;
  out.stats = {stats.instructionsLifted, stats.blocks, stats.functions, stats.unsupported};
  out.diagnostics = records(diagnostics);
  return out;
}

} // namespace hoist::python
