// `hoist cfg --dot`: the program CFG as Graphviz dot (CfgDot.h). The blocks' instructions are
// decoded again here: the program CFG keeps only their extents (ProgramDiscovery.h).
#include "CfgDot.h"
#include "CompactAssembly.h"
#include "HtmlText.h"

#include "Decode/Decoder.h"
#include "Discover/FunctionExplorer.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <set>
#include <string>

namespace hoist {
namespace {

enum class EdgeKind {
  Fallthrough,     ///< runs into the next block
  Taken,           ///< a conditional branch (or a repeated string instruction) taken
  NotTaken,        ///< the same, not taken: the next instruction
  Jump,            ///< an unconditional direct jmp within the function
  JumpTableCase,   ///< one index of a resolved jump table
  Computed,        ///< a target the value analysis found for an indirect jmp
  Call,            ///< a call, to a function or an import
  TailCall,        ///< a jmp to another function's start or to an import
  Unresolved,      ///< an indirect jmp nothing resolved, to a node with the reason
};

/// The `class` attribute (kept in SVG output) and the look of each kind; docs/CFG.md has the
/// legend.
struct EdgeStyle {
  const char *name;
  const char *attributes;
};

EdgeStyle edgeStyle(EdgeKind kind) {
  switch (kind) {
  case EdgeKind::Fallthrough:
    return {"fallthrough", "color=\"gray40\""};
  case EdgeKind::Taken:
    return {"taken", "color=\"darkgreen\""};
  case EdgeKind::NotTaken:
    return {"not_taken", "color=\"red3\", style=\"dashed\""};
  case EdgeKind::Jump:
    return {"jump", "color=\"blue3\""};
  case EdgeKind::JumpTableCase:
    return {"case", "color=\"purple\", fontcolor=\"purple\""};
  case EdgeKind::Computed:
    return {"computed", "color=\"purple\", style=\"dashed\""};
  case EdgeKind::Call:
    return {"call", "color=\"darkorange\", style=\"dotted\""};
  case EdgeKind::TailCall:
    return {"tail_call", "color=\"darkorange\", style=\"bold\""};
  case EdgeKind::Unresolved:
    return {"unresolved", "color=\"red\", style=\"bold\""};
  }
  return {"edge", ""};
}

/// Lowercase hex digits without a prefix: the addresses in node names.
std::string hex(uint64_t address) { return llvm::utohexstr(address, /*LowerCase=*/true); }

/// The inside of a dot double-quoted string: `"` and `\` escaped, line breaks as `\n`.
std::string quoted(llvm::StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// Why a block ends without a transfer of its own, for its label; empty when it ends with one.
std::string blockEndNote(const MachineBlock &block) {
  switch (block.end) {
  case MachineBlock::End::Invalid:
    return "undecodable bytes at " + formatAddress(block.endAddress);
  case MachineBlock::End::LeavesCode:
    return "runs out of executable code at " + formatAddress(block.endAddress);
  case MachineBlock::End::Budget:
    return "discovery's budget ended here";
  case MachineBlock::End::NoReturnCall:
    return "the call does not return";
  default:
    return "";
  }
}

class DotWriter {
public:
  DotWriter(const Image &image, const std::map<uint64_t, DiscoveredFunction> &functions,
            const CfgDotOptions &options, llvm::raw_ostream &out)
      : image_(image), functions_(functions), options_(options), out_(out) {}

  void write() {
    out_ << "digraph " << quoted(image_.path()) << " {\n"
         << "  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
         << "  edge [fontname=\"monospace\", fontsize=9];\n";
    for (const auto &[entry, function] : functions_)
      if (isDrawn(entry))
        writeFunction(function);
    // Edges and callee nodes come after every cluster: a node is drawn in the first subgraph
    // that names it, so an edge inside one cluster to another function's block would pull
    // that block into it.
    out_ << externalNodes_ << edges_ << "}\n";
  }

private:
  bool isDrawn(uint64_t entry) const {
    return functions_.count(entry) && (options_.only.empty() || options_.only.count(entry));
  }

  static std::string blockNode(uint64_t entry, uint64_t start) {
    return "f" + hex(entry) + "_b" + hex(start);
  }

  void writeFunction(const DiscoveredFunction &function) {
    const ExploredFunction &explored = function.explored;
    std::optional<std::string> name = image_.nameAt(explored.entry);
    out_ << "  subgraph " << quoted("cluster_" + hex(explored.entry)) << " {\n"
         << "    label=" << quoted((name ? *name + " " : "") + formatAddress(explored.entry))
         << ";\n";
    for (const auto &[start, block] : explored.blocks) {
      std::vector<Instr> instrs = decodeBlock(block);
      out_ << "    " << quoted(blockNode(explored.entry, start));
      if (options_.blockIds)
        out_ << " [id=" << quoted("block_" + hex(start)) << ", label=<";
      else
        out_ << " [label=<";
      out_ << blockLabel(block, instrs) << ">];\n";
      writeBlockEdges(function, block, instrs);
    }
    out_ << "  }\n";
    if (options_.calls)
      for (const CallSite &call : function.calls)
        writeCall(function, call);
  }

  std::vector<Instr> decodeBlock(const MachineBlock &block) const {
    std::vector<Instr> instrs;
    for (uint64_t address = block.start; address < block.endAddress;) {
      llvm::ArrayRef<uint8_t> bytes;
      if (image_.isExecutable(address))
        bytes = image_.bytesAt(address);
      Instr instr;
      if (bytes.empty() ||
          decoder_.decode(bytes.data(), bytes.size(), address, instr) != DecodeStatus::Ok)
        break;
      instrs.push_back(instr);
      address = instr.next();
    }
    return instrs;
  }

  std::string blockLabel(const MachineBlock &block, const std::vector<Instr> &instrs) const {
    std::string label = "<TABLE BORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">"
                        "<TR><TD ALIGN=\"LEFT\"><B>" +
                        formatAddress(block.start) + "</B></TD></TR>";
    for (const Instr &instr : instrs) {
      // As `--annotate` and the report print it (`js 0x118e`).
      std::optional<Disassembled> compact = disassembler_.at(image_, instr.address);
      label += "<TR><TD ALIGN=\"LEFT\">" + hex(instr.address) + "  " +
               htmlEscaped(compact ? compact->text : instr.text()) + "</TD></TR>";
    }
    if (std::string note = blockEndNote(block); !note.empty())
      label += "<TR><TD ALIGN=\"LEFT\"><I>" + htmlEscaped(note) + "</I></TD></TR>";
    return label + "</TABLE>";
  }

  void edge(const std::string &from, const std::string &to, EdgeKind kind,
            const std::string &label = "") {
    EdgeStyle style = edgeStyle(kind);
    edgeStream_ << "  " << quoted(from) << " -> " << quoted(to) << " [class=\"" << style.name
                << "\", " << style.attributes;
    if (!label.empty())
      edgeStream_ << ", label=" << quoted(label);
    edgeStream_ << "];\n";
  }

  /// The kind of the edge from a block ending in `last` to its successor `target` in the same
  /// function, for every way out but a jump table or a computed jump.
  static EdgeKind successorKind(const MachineBlock &block, const Instr *last, uint64_t target) {
    if (!last)
      return EdgeKind::Fallthrough;
    bool conditional = last->category == ZYDIS_CATEGORY_COND_BR ||
                       (last->category == ZYDIS_CATEGORY_STRINGOP && last->hasRepeatPrefix());
    if (block.end != MachineBlock::End::Terminator)
      return EdgeKind::Fallthrough;
    if (conditional)
      return target == last->next() ? EdgeKind::NotTaken : EdgeKind::Taken;
    if (last->category == ZYDIS_CATEGORY_UNCOND_BR)
      return EdgeKind::Jump;
    return EdgeKind::Fallthrough;
  }

  /// The node standing for `target` as a callee: its entry block when the graph shows it,
  /// else a node of its own, written the first time it is needed.
  std::string functionNode(uint64_t target) {
    if (isDrawn(target))
      return blockNode(target, target);
    std::string node = "fn_" + hex(target);
    if (externalNodeNames_.insert(node).second) {
      std::optional<std::string> name = image_.nameAt(target);
      externals_ << "  " << quoted(node) << " [label=" << quoted(name ? *name : formatAddress(target))
           << ", style=\"rounded,dashed\"];\n";
    }
    return node;
  }

  std::string importNode(const std::string &name) {
    std::string node = "import_" + name;
    if (externalNodeNames_.insert(node).second)
      externals_ << "  " << quoted(node) << " [label=" << quoted(name)
           << ", shape=\"cds\", style=\"dashed\"];\n";
    return node;
  }

  /// A call edge's source is the block holding the call instruction.
  void writeCall(const DiscoveredFunction &function, const CallSite &call) {
    const auto &blocks = function.explored.blocks;
    auto holder = blocks.upper_bound(call.at);
    if (holder == blocks.begin())
      return;
    --holder;
    if (call.at >= holder->second.endAddress)
      return;
    std::string from = blockNode(function.explored.entry, holder->first);
    if (!call.import.empty())
      edge(from, importNode(call.import), EdgeKind::Call);
    else if (call.target)
      edge(from, functionNode(*call.target), EdgeKind::Call);
  }

  void writeBlockEdges(const DiscoveredFunction &function, const MachineBlock &block,
                       const std::vector<Instr> &instrs) {
    const ExploredFunction &explored = function.explored;
    const uint64_t entry = explored.entry;
    const std::string from = blockNode(entry, block.start);
    const Instr *last = instrs.empty() ? nullptr : &instrs.back();
    // The successors a jump table or computed jump explains; the rest get their kind below.
    std::set<uint64_t> explained;
    if (last) {
      auto table = explored.jumpTables.find(last->address);
      if (table != explored.jumpTables.end() &&
          table->second.shape != JumpTable::Shape::Computed) {
        for (size_t index = 0; index < table->second.targets.size(); ++index) {
          uint64_t target = table->second.targets[index];
          if (!explored.blocks.count(target))
            continue;
          edge(from, blockNode(entry, target), EdgeKind::JumpTableCase,
               "case " + std::to_string(index));
          explained.insert(target);
        }
      }
      for (const ComputedJump &jump : function.computedJumps) {
        if (jump.jump != last->address)
          continue;
        for (uint64_t target : jump.targets) {
          if (explored.blocks.count(target)) {
            edge(from, blockNode(entry, target), EdgeKind::Computed);
            explained.insert(target);
          } else {
            edge(from, functionNode(target), EdgeKind::TailCall);
          }
        }
        if (!jump.import.empty())
          edge(from, importNode(jump.import), EdgeKind::TailCall);
      }
    }
    for (uint64_t successor : block.successors)
      if (!explained.count(successor))
        edge(from, blockNode(entry, successor), successorKind(block, last, successor));
    if (!last)
      return;
    writeLeavingEdges(function, block, *last, from);
  }

  /// Where a block's last instruction leaves the function: tail calls and unresolved jmps.
  void writeLeavingEdges(const DiscoveredFunction &function, const MachineBlock &block,
                         const Instr &last, const std::string &from) {
    const ExploredFunction &explored = function.explored;
    if (block.end == MachineBlock::End::TailCall)
      if (std::optional<uint64_t> target = directTarget(last))
        edge(from, functionNode(*target), EdgeKind::TailCall);
    if (auto table = explored.tailCallTables.find(last.address);
        table != explored.tailCallTables.end())
      for (size_t index = 0; index < table->second.targets.size(); ++index)
        edge(from, functionNode(table->second.targets[index]), EdgeKind::TailCall,
             "case " + std::to_string(index));
    if (auto slot = explored.importSlotJumps.find(last.address);
        slot != explored.importSlotJumps.end())
      if (const Import *import = image_.importAtSlot(slot->second))
        edge(from, importNode(import->name), EdgeKind::TailCall);
    for (const UnresolvedJump &jump : function.unresolvedJumps) {
      if (jump.jump != last.address)
        continue;
      std::string node = "unresolved_" + hex(explored.entry) + "_" + hex(jump.jump);
      out_ << "    " << quoted(node) << " [label=" << quoted("unresolved jmp\n" + jump.reason)
           << ", shape=\"octagon\", color=\"red\", fontcolor=\"red\"];\n";
      edge(from, node, EdgeKind::Unresolved);
    }
  }

  const Image &image_;
  CompactDisassembler disassembler_;
  const std::map<uint64_t, DiscoveredFunction> &functions_;
  const CfgDotOptions &options_;
  llvm::raw_ostream &out_;
  Decoder decoder_;
  std::set<std::string> externalNodeNames_;   ///< callee nodes outside the clusters, once each
  std::string externalNodes_;
  llvm::raw_string_ostream externals_{externalNodes_};
  std::string edges_;
  llvm::raw_string_ostream edgeStream_{edges_};
};

} // namespace

void writeCfgDot(const Image &image, const std::map<uint64_t, DiscoveredFunction> &functions,
                 llvm::raw_ostream &out, const CfgDotOptions &options) {
  DotWriter(image, functions, options, out).write();
}

} // namespace hoist
