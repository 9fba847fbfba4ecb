// The LLVM headers most of Hoist's files include, precompiled once when HOIST_PCH is on
// (CMakeLists.txt, hoist_precompile_headers): parsing them is about a third of each file's
// compile time. Every file still includes what it uses, so the build without PCH works too.
#pragma once

// libstdc++ 12's std::stable_sort calls std::get_temporary_buffer, which C++17 deprecates, and
// clang reports that inside the system header at every stable_sort (libstdc++ 13 silences it in
// the header itself). Diagnostic pragmas apply by source location, so reading <algorithm> here
// first, between these pragmas, turns the report off for the library's lines only.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <algorithm>
#pragma clang diagnostic pop
#endif

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <memory>
#include <string>
#include <vector>
