// Where the differential harness puts things in the host address space. One fixed mapping holds
// the code page and the arena (data page, stack pages), between two inaccessible guard pages:
//
//   0x60000000  guard
//   0x60001000  code   0x000 far_back stub   0x0c0 back stub   0x100 the instruction, then the
//                      fallthrough stub, `target` 0x40 and `far_target` 0x200 after its end,
//                      and the stub for planted indirect targets at 0xe00
//   0x60002000  data   (`data` in a form)
//   0x60003000  stack  two pages; RSP starts in the middle
//   0x60005000  guard
//
// Fixed, so that the assembler can resolve `data` (absolute and RIP-relative) before the
// mapping exists, so that reports show the same addresses on every run, and below 2 GiB, so
// that `[data+rax*8]` fits the sign-extended disp32 of absolute addressing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hoist::test::layout {

constexpr uint64_t PageSize = 0x1000;
constexpr uint64_t MappingAddress = 0x60000000;
constexpr uint64_t CodeAddress = MappingAddress + PageSize;
constexpr uint64_t CodeSize = PageSize;
constexpr uint64_t DataAddress = CodeAddress + CodeSize;
constexpr uint64_t DataSize = PageSize;
constexpr uint64_t StackAddress = DataAddress + DataSize;
constexpr uint64_t StackSize = 2 * PageSize;
constexpr uint64_t MappingSize = PageSize + CodeSize + DataSize + StackSize + PageSize;

/// The arena is what both runs may read and write; it is reset before and compared after each.
constexpr uint64_t ArenaAddress = DataAddress;
constexpr size_t ArenaSize = DataSize + StackSize;

/// Offsets in the code page. The instruction starts late enough for backward branches.
constexpr uint64_t FarBackOffset = 0x000;
constexpr uint64_t BackOffset = 0x0c0;
constexpr uint64_t InstructionOffset = 0x100;
constexpr uint64_t IndirectTargetOffset = 0xe00;
constexpr uint64_t InstructionAddress = CodeAddress + InstructionOffset;
constexpr uint64_t IndirectTarget = CodeAddress + IndirectTargetOffset;

/// Distances of the forward labels from the end of the instruction: `target` is reachable with
/// a rel8 branch, `far_target` only with rel32 (likewise `back` and `far_back` backwards).
constexpr uint64_t TargetDistance = 0x40;
constexpr uint64_t FarTargetDistance = 0x200;

/// The GS base both runs use (the native runner sets it with arch_prctl; glibc does not use
/// GS on x86-64). Far from the arena, so a lifter that forgot the base would fault.
constexpr uint64_t GsBase = 0x10000000;

/// The most code load() places: a sequence (SequenceTest.cpp) whose `far_target` stub, 0x200
/// after its end, stays clear of the indirect-target stub.
constexpr uint64_t MaxCodeSize =
    IndirectTargetOffset - 0x40 - FarTargetDistance - InstructionOffset;

/// An exit stub is 44 bytes (NativeRunner.cpp); the label spacing above leaves room for each.
constexpr uint64_t ExitStubSpacing = 0x40;

} // namespace hoist::test::layout
