// hoist-bench: times one phase of Hoist over one binary and prints one JSON object:
//   hoist-bench --phase PHASE [--sample N] [--pc-metadata] FILE
// Each phase runs in its own process (scripts/bench.sh starts them), so the peak memory it
// reports (getrusage's maxrss) is that phase's, loading the image included.
#include "Phases.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <sys/resource.h>

#include <string>

namespace {

int usage() {
  llvm::errs() << "usage: hoist-bench --phase PHASE [--sample N] [--pc-metadata] FILE\n"
                  "phases: zydis decode lift cleanup o2 discover program\n";
  return 2;
}

uint64_t peakMemoryKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss);   // KiB on Linux
}

} // namespace

int main(int argc, char **argv) {
  hoist::bench::PhaseRequest request;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--phase" && i + 1 < argc)
      request.phase = argv[++i];
    else if (arg == "--sample" && i + 1 < argc) {
      if (llvm::StringRef(argv[++i]).getAsInteger(10, request.sampleFunctions))
        return usage();
    } else if (arg == "--pc-metadata")
      request.pcMetadata = true;
    else if (!arg.starts_with("-") && path.empty())
      path = arg.str();
    else
      return usage();
  }
  if (request.phase.empty() || path.empty())
    return usage();

  llvm::Expected<std::unique_ptr<hoist::Image>> image = hoist::Image::load(path);
  if (!image) {
    llvm::errs() << "hoist-bench: error: " << llvm::toString(image.takeError()) << "\n";
    return 1;
  }
  llvm::Expected<hoist::bench::PhaseResult> result = hoist::bench::runPhase(**image, request);
  if (!result) {
    llvm::errs() << "hoist-bench: error: " << llvm::toString(result.takeError()) << "\n";
    return 2;
  }
  llvm::json::Object out{{"file", path},
                         {"phase", request.phase},
                         {"sample", request.sampleFunctions},
                         {"instructions", result->instructions},
                         {"functions", result->functions},
                         {"functions_in_program", result->functionsInProgram},
                         {"writes_mispredicted", result->writesMispredicted},
                         {"seconds", result->seconds},
                         {"lift_seconds", result->liftSeconds},
                         {"optimize_seconds", result->optimizeSeconds},
                         {"cpu_seconds", result->cpuSeconds},
                         {"lift_cpu_seconds", result->liftCpuSeconds},
                         {"optimize_cpu_seconds", result->optimizeCpuSeconds},
                         {"maxrss_kib", peakMemoryKiB()}};
  llvm::outs() << llvm::formatv("{0}", llvm::json::Value(std::move(out))) << "\n";
  return 0;
}
