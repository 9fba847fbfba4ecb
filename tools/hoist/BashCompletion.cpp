#include "BashCompletion.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/CommandLine.h>

#include <algorithm>
#include <set>
#include <string>

namespace hoist {
namespace {

/// How hoist's messages and documents spell an option: one dash for a single letter and for
/// the -O levels (`-o`, `-j`, `-O2`), two for a word (`--brighten`).
std::string spelled(llvm::StringRef name) {
  bool oneDash = name.size() == 1 || (name.size() == 2 && name[0] == 'O');
  return (oneDash ? "-" : "--") + name.str();
}

/// The options a user may type after `sub`: the registered names (an enum option such as the
/// -O level registers each of its values as a name), hidden ones left out.
std::set<std::string> visibleOptions(llvm::cl::SubCommand &sub) {
  std::set<std::string> names;
  for (const auto &[name, option] : llvm::cl::getRegisteredOptions(sub))
    if (option->getOptionHiddenFlag() == llvm::cl::NotHidden && !name.empty())
      names.insert(spelled(name));
  return names;
}

} // namespace

void printBashCompletion(llvm::raw_ostream &out) {
  std::vector<llvm::cl::SubCommand *> subcommands;
  for (llvm::cl::SubCommand *sub : llvm::cl::getRegisteredSubcommands())
    if (!sub->getName().empty())   // the top level and "all subcommands" have no name
      subcommands.push_back(sub);
  // By name, so that the script is the same from one build to the next.
  std::sort(subcommands.begin(), subcommands.end(),
            [](llvm::cl::SubCommand *a, llvm::cl::SubCommand *b) {
              return a->getName() < b->getName();
            });
  std::vector<std::string> names;
  for (llvm::cl::SubCommand *sub : subcommands)
    names.push_back(sub->getName().str());

  out << "# bash completion for hoist, made by `hoist --print-completion bash`.\n"
      << "_hoist() {\n"
      << "  local cur=${COMP_WORDS[COMP_CWORD]} sub= i\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    case ${COMP_WORDS[i]} in\n"
      << "      " << llvm::join(names, "|") << ") sub=${COMP_WORDS[i]}; break ;;\n"
      << "    esac\n"
      << "  done\n"
      << "  local options\n"
      << "  case $sub in\n";
  for (llvm::cl::SubCommand *sub : subcommands) {
    std::set<std::string> options = visibleOptions(*sub);
    out << "    " << sub->getName() << ") options=\""
        << llvm::join(options.begin(), options.end(), " ") << "\" ;;\n";
  }
  out << "    *)\n"
      << "      if [[ $cur != -* ]]; then\n"
      << "        COMPREPLY=($(compgen -W \"" << llvm::join(names, " ") << "\" -- \"$cur\"))\n"
      << "        return\n"
      << "      fi\n"
      << "      options=\"--help --version\" ;;\n"
      << "  esac\n"
      << "  if [[ $cur == -* ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
      << "  else\n"
      << "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      << "  fi\n"
      << "}\n"
      << "complete -o filenames -F _hoist hoist\n";
}

} // namespace hoist
