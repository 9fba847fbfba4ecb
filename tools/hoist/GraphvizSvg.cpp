#include "GraphvizSvg.h"

#include "Support/Error.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FileUtilities.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <optional>

namespace hoist {
namespace {

llvm::Expected<std::string> temporaryFile(llvm::StringRef suffix) {
  llvm::SmallString<128> path;
  if (std::error_code error = llvm::sys::fs::createTemporaryFile("hoist-report", suffix, path))
    return makeError("cannot create a temporary file: {0}", error.message());
  return std::string(path);
}

/// The SVG documents in dot's output, each reduced to its `<svg>` element: the XML
/// declaration and the doctype before it have no place inside an HTML page.
std::vector<std::string> svgElements(llvm::StringRef output) {
  std::vector<std::string> elements;
  const llvm::StringRef close = "</svg>";
  while (true) {
    size_t start = output.find("<svg");
    if (start == llvm::StringRef::npos)
      break;
    size_t end = output.find(close, start);
    if (end == llvm::StringRef::npos)
      break;
    elements.push_back(output.slice(start, end + close.size()).str());
    output = output.drop_front(end + close.size());
  }
  return elements;
}

} // namespace

llvm::Expected<std::vector<std::string>> renderSvg(const std::string &dot, size_t graphs) {
  if (graphs == 0)
    return std::vector<std::string>{};
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName("dot");
  if (!program)
    return makeError("Graphviz's dot program draws the graphs, and it is not on PATH "
                     "(Debian and Ubuntu: apt-get install graphviz)");
  llvm::Expected<std::string> input = temporaryFile("dot");
  if (!input)
    return input.takeError();
  llvm::FileRemover removeInput(*input);
  llvm::Expected<std::string> output = temporaryFile("svg");
  if (!output)
    return output.takeError();
  llvm::FileRemover removeOutput(*output);
  llvm::Expected<std::string> messages = temporaryFile("txt");
  if (!messages)
    return messages.takeError();
  llvm::FileRemover removeMessages(*messages);
  {
    std::error_code error;
    llvm::raw_fd_ostream out(*input, error, llvm::sys::fs::OF_Text);
    if (error)
      return makeError("{0}: cannot write: {1}", *input, error.message());
    out << dot;
  }
  // On stdout: `-o FILE` would hold only the last graph, each overwriting the one before.
  llvm::StringRef arguments[] = {"dot", "-Tsvg", *input};
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(*output),
                                                llvm::StringRef(*messages)};
  std::string failure;
  int status = llvm::sys::ExecuteAndWait(*program, arguments, std::nullopt, redirects,
                                         /*SecondsToWait=*/0, /*MemoryLimit=*/0, &failure);
  if (status != 0) {
    std::string said;
    if (auto text = llvm::MemoryBuffer::getFile(*messages))
      said = (*text)->getBuffer().trim().str();
    return makeError("{0} failed ({1}): {2}", *program,
                     failure.empty() ? "exit code " + std::to_string(status) : failure,
                     said.empty() ? "no message" : said);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> svg = llvm::MemoryBuffer::getFile(*output);
  if (!svg)
    return makeError("{0}: cannot read what dot wrote: {1}", *output, svg.getError().message());
  std::vector<std::string> elements = svgElements((*svg)->getBuffer());
  if (elements.size() != graphs)
    return makeError("dot drew {0} of {1} graphs", elements.size(), graphs);
  return elements;
}

} // namespace hoist
