#include "GraphvizSvg.h"

#include "Support/Error.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FileUtilities.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <optional>
#include <thread>

namespace hoist {
namespace {

/// At most this many runs of dot at once: one a core, as long as the machine has them.
constexpr unsigned MaxRuns = 4;

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

/// One run of dot over some of the graphs, its files removed when it is done with.
struct Run {
  std::vector<size_t> graphs;   ///< indices into the caller's graphs, in order
  size_t size = 0;              ///< their text's length: a guess at dot's work
  std::string input, output, messages;
  std::optional<llvm::FileRemover> removeInput, removeOutput, removeMessages;
  llvm::sys::ProcessInfo process;
};

/// Each graph to the run with the least text so far, the largest first.
std::vector<Run> balance(const std::vector<std::string> &graphs, unsigned runs) {
  std::vector<size_t> order(graphs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return graphs[a].size() > graphs[b].size(); });
  std::vector<Run> batches(runs);
  for (size_t index : order) {
    Run &lightest = *std::min_element(batches.begin(), batches.end(),
                                      [](const Run &a, const Run &b) { return a.size < b.size; });
    lightest.graphs.push_back(index);
    lightest.size += graphs[index].size();
  }
  for (Run &run : batches)
    std::sort(run.graphs.begin(), run.graphs.end());
  return batches;
}

llvm::Error start(const std::string &program, const std::vector<std::string> &graphs, Run &run) {
  for (auto [path, remover, suffix] :
       {std::tuple{&run.input, &run.removeInput, "dot"},
        std::tuple{&run.output, &run.removeOutput, "svg"},
        std::tuple{&run.messages, &run.removeMessages, "txt"}}) {
    llvm::Expected<std::string> file = temporaryFile(suffix);
    if (!file)
      return file.takeError();
    *path = *file;
    remover->emplace(*path);
  }
  {
    std::error_code error;
    llvm::raw_fd_ostream out(run.input, error, llvm::sys::fs::OF_Text);
    if (error)
      return makeError("{0}: cannot write: {1}", run.input, error.message());
    for (size_t index : run.graphs)
      out << graphs[index];
  }
  // The network simplex that places the nodes across runs for as many iterations as it likes
  // by default: minutes for ls's main (325 blocks, 19,000 nodes once long edges are cut into
  // a node a rank). Half an iteration a node bounds it at a few seconds, the picture nearly as
  // good. The output goes to stdout: `-o FILE` would hold only the last graph.
  llvm::StringRef arguments[] = {"dot", "-Tsvg", "-Gnslimit=0.5", run.input};
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(run.output),
                                                llvm::StringRef(run.messages)};
  std::string failure;
  run.process = llvm::sys::ExecuteNoWait(program, arguments, std::nullopt, redirects, 0,
                                         &failure);
  if (run.process.Pid == llvm::sys::ProcessInfo::InvalidPid)
    return makeError("{0} did not start: {1}", program, failure);
  return llvm::Error::success();
}

llvm::Error finish(const std::string &program, Run &run, std::vector<std::string> &svgs) {
  std::string failure;
  llvm::sys::ProcessInfo done =
      llvm::sys::Wait(run.process, /*SecondsToWait=*/std::nullopt, &failure);
  if (done.ReturnCode != 0) {
    std::string said;
    if (auto text = llvm::MemoryBuffer::getFile(run.messages))
      said = (*text)->getBuffer().trim().str();
    return makeError("{0} failed ({1}): {2}", program,
                     failure.empty() ? "exit code " + std::to_string(done.ReturnCode) : failure,
                     said.empty() ? "no message" : said);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> output =
      llvm::MemoryBuffer::getFile(run.output);
  if (!output)
    return makeError("{0}: cannot read what dot wrote: {1}", run.output,
                     output.getError().message());
  std::vector<std::string> elements = svgElements((*output)->getBuffer());
  if (elements.size() != run.graphs.size())
    return makeError("dot drew {0} of {1} graphs", elements.size(), run.graphs.size());
  for (size_t i = 0; i < elements.size(); ++i)
    svgs[run.graphs[i]] = std::move(elements[i]);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::string> findDot() {
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName("dot");
  if (!program)
    return makeError("Graphviz's dot program draws the graphs, and it is not on PATH "
                     "(Debian and Ubuntu: apt-get install graphviz)");
  return *program;
}

llvm::Expected<std::vector<std::string>> renderSvg(const std::vector<std::string> &graphs) {
  std::vector<std::string> svgs(graphs.size());
  if (graphs.empty())
    return svgs;
  llvm::Expected<std::string> program = findDot();
  if (!program)
    return program.takeError();
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Run> runs =
      balance(graphs, static_cast<unsigned>(std::min<size_t>({cores, MaxRuns, graphs.size()})));
  // Every run started is waited for, also after one failed, so none is left behind.
  llvm::Error failure = llvm::Error::success();
  std::vector<Run *> started;
  for (Run &run : runs) {
    if (llvm::Error error = start(*program, graphs, run)) {
      failure = llvm::joinErrors(std::move(failure), std::move(error));
      break;
    }
    started.push_back(&run);
  }
  for (Run *run : started)
    if (llvm::Error error = finish(*program, *run, svgs))
      failure = llvm::joinErrors(std::move(failure), std::move(error));
  if (failure)
    return std::move(failure);
  return svgs;
}

} // namespace hoist
