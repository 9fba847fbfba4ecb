#include "CommandLineParse.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <unistd.h>

namespace hoist {
namespace {

/// What is written to stderr while it lives, kept in a file instead. LLVM's parser gives an
/// option's own complaints ("for the --emit option: requires a value!") to llvm::errs(), not
/// to the stream it is handed, so those can be reworded only from there.
class StderrCapture {
public:
  StderrCapture() {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("hoist-usage", "txt", file_, path))
      return;   // not captured: the messages still reach stderr as LLVM words them
    // Read through the descriptor alone, so that nothing is left behind when the parser
    // exits by itself (--help, --version).
    llvm::sys::fs::remove(path);
    llvm::errs().flush();
    saved_ = ::dup(STDERR_FILENO);
    ::dup2(file_, STDERR_FILENO);
  }

  /// Ends the capture (stderr is the terminal or file it was) and returns what was written.
  std::string finish() {
    std::string written;
    if (saved_ < 0)
      return written;
    llvm::errs().flush();
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
    ::lseek(file_, 0, SEEK_SET);
    char buffer[4096];
    for (ssize_t n; (n = ::read(file_, buffer, sizeof buffer)) > 0;)
      written.append(buffer, n);
    ::close(file_);
    return written;
  }

  ~StderrCapture() { finish(); }

private:
  int file_ = -1;
  int saved_ = -1;
};

/// LLVM's parser starts its messages with the program's name alone.
void printParseErrors(llvm::StringRef programName, llvm::StringRef errors) {
  llvm::SmallVector<llvm::StringRef> lines;
  errors.split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string prefix = (programName + ": ").str();
  for (llvm::StringRef line : lines) {
    if (line.consume_front(prefix))
      llvm::errs() << programName
                   << (line.starts_with("Did you mean") ? ": note: " : ": error: ") << line
                   << "\n";
    else
      llvm::errs() << line << "\n";
  }
}

} // namespace

bool parseCommandLine(int argc, char **argv, llvm::StringRef overview) {
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  StderrCapture capture;
  bool parsed = llvm::cl::ParseCommandLineOptions(argc, argv, overview, &errorStream);
  std::string written = capture.finish();
  if (parsed && written.empty())
    return true;
  printParseErrors(llvm::sys::path::filename(argv[0]), written + errorStream.str());
  return parsed;
}

} // namespace hoist
