// What `hoist report` shows (docs/CLI.md, "Report"): gathered by ReportCommand.cpp from the
// discovery, the lift and the brightening of one run, written out by ReportPages.h.
#pragma once

#include "hoist/Diagnostics.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hoist {

struct ReportInstruction {
  uint64_t address = 0;
  uint64_t block = 0;   ///< the start of the block it is listed in
  std::string text;     ///< Intel syntax, as the graph's blocks show it
};

struct ReportJump {
  uint64_t address = 0;
  std::string reason;   ///< why discovery left it unresolved
};

struct FunctionReport {
  uint64_t entry = 0;
  std::string name;   ///< the image's symbol, else the lifted function's name
  std::string page;   ///< its file in the report's directory
  /// Block by block in address order; empty when discovery did not explore the function.
  std::vector<ReportInstruction> instructions;
  size_t blocks = 0;
  size_t jumpTables = 0;
  std::vector<ReportJump> unresolvedJumps;
  std::string liftedIR;       ///< annotated (AnnotatedIR.h)
  std::string brightenedIR;   ///< annotated; empty when it was not brightened
  std::string notBrightened;  ///< why not, when it was not
  std::string svg;            ///< its graph; empty when not drawn
  std::string graphNote;      ///< why not drawn
  std::vector<Diagnostic> diagnostics;   ///< those at its code, of every phase

  bool brightened() const { return !brightenedIR.empty(); }
};

struct ProgramReport {
  std::string binary;
  unsigned optLevel = 0;
  std::string convention;   ///< the calling convention brightening aimed at
  std::vector<FunctionReport> functions;   ///< by entry
  uint64_t instructionsLifted = 0;
  std::map<std::string, uint64_t> unsupported;   ///< mnemonic -> occurrences
  std::vector<Diagnostic> diagnostics;           ///< every one, discovery to brightening
  /// Brightening of the whole module failed (a Hoist bug): the message.
  std::string brightenFailure;
};

} // namespace hoist
