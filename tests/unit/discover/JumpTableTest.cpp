// Jump tables in the shapes compilers emit, resolved by pattern analysis; the lifter turns them
// into a switch. The code is raw bytes at 0x1000, assembled once with GNU as (the source is in
// each comment); tests/cfg checks whole binaries against the compiler's own truth.
#include "DiscoveredForTest.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

using test::Base;
using test::Discovered;

/// The switch the lifter made for the jmp, or null.
const llvm::SwitchInst *liftedSwitch(const std::vector<uint8_t> &code, llvm::LLVMContext &context,
                                     std::unique_ptr<Image> &image,
                                     std::unique_ptr<Lifter> &lifter) {
  static DiagnosticSink diagnostics;
  image = Image::fromRawBytes(code, Base);
  lifter = std::make_unique<Lifter>(*image, context, diagnostics);
  llvm::Expected<llvm::Function *> function = lifter->liftFunction(Base);
  if (!function) {
    ADD_FAILURE() << llvm::toString(function.takeError());
    return nullptr;
  }
  EXPECT_FALSE(llvm::verifyModule(lifter->module(), &llvm::errs()));
  for (const llvm::BasicBlock &bb : **function)
    if (auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(bb.getTerminator()))
      return switchInst;
  return nullptr;
}

// base: cmp ecx, 3; ja 5f; movsxd rax, ecx; lea rdx, [rip+base]
//       mov ecx, [rdx+rax*4+(table-base)]; add rcx, rdx; jmp rcx
// 0: mov eax,1; ret   1: mov eax,2; ret   2: mov eax,3; ret   5: xor eax,eax; ret
// table: .long 0b-base, 1b-base, 2b-base, 1b-base        (MSVC: entries relative to __ImageBase)
const std::vector<uint8_t> Msvc = {
    0x83, 0xf9, 0x03, 0x77, 0x28, 0x48, 0x63, 0xc1, 0x48, 0x8d, 0x15, 0xf1, 0xff, 0xff, 0xff,
    0x8b, 0x8c, 0x82, 0x30, 0x00, 0x00, 0x00, 0x48, 0x01, 0xd1, 0xff, 0xe1, 0xb8, 0x01, 0x00,
    0x00, 0x00, 0xc3, 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3,
    0x31, 0xc0, 0xc3, 0x1b, 0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x00, 0x27, 0x00, 0x00, 0x00,
    0x21, 0x00, 0x00, 0x00};

// and edi, 3; jmp [rdi*8+table]; 0..3: mov eax,N; ret; table: .quad 0b,1b,2b,3b  (absolute)
const std::vector<uint8_t> AbsoluteMasked = {
    0x83, 0xe7, 0x03, 0xff, 0x24, 0xfd, 0x28, 0x10, 0x00, 0x00, 0xb8, 0x01, 0x00, 0x00, 0x00,
    0xc3, 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x04,
    0x00, 0x00, 0x00, 0xc3, 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00, 0x0a, 0x10, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x10, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x16, 0x10, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x1c, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

// lea eax, [rdi-5]; cmp eax, 2; ja 9f; lea rdx, [rip+table]; movsxd rax, [rdx+rax*4]
// add rax, rdx; jmp rax; 0..2: mov eax,N; ret; 9: mov eax,-1; ret
// table: .long 0b-table, 1b-table, 2b-table                 (gcc/clang PIC, biased index)
const std::vector<uint8_t> BiasedPic = {
    0x8d, 0x47, 0xfb, 0x83, 0xf8, 0x02, 0x77, 0x22, 0x48, 0x8d, 0x15, 0x21, 0x00, 0x00, 0x00,
    0x48, 0x63, 0x04, 0x82, 0x48, 0x01, 0xd0, 0xff, 0xe0, 0xb8, 0x0a, 0x00, 0x00, 0x00, 0xc3,
    0xb8, 0x14, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x1e, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0xff, 0xff,
    0xff, 0xff, 0xc3, 0xe8, 0xff, 0xff, 0xff, 0xee, 0xff, 0xff, 0xff, 0xf4, 0xff, 0xff, 0xff};

// lea rdx, [rip+table]; movsxd rax, [rdx+rdi*4]; add rax, rdx; jmp rax   (no bound)
const std::vector<uint8_t> Unbounded = {
    0x48, 0x8d, 0x15, 0x11, 0x00, 0x00, 0x00, 0x48, 0x63, 0x04, 0xba, 0x48, 0x01, 0xd0, 0xff,
    0xe0, 0xb8, 0x0a, 0x00, 0x00, 0x00, 0xc3, 0x66, 0x90, 0xf8, 0xff, 0xff, 0xff, 0xf8, 0xff,
    0xff, 0xff};

// cmp edi, 1; ja 9f; lea rdx, [rip+table]; movsxd rax, [rdx+rdi*4]; add rax, rdx; jmp rax
// 0: mov eax,10; ret; 9: ret; table: .long 0b-table, 0x100000   (entry 1 leaves the code)
const std::vector<uint8_t> EntryOutside = {
    0x83, 0xff, 0x01, 0x77, 0x16, 0x48, 0x8d, 0x15, 0x10, 0x00, 0x00, 0x00, 0x48, 0x63, 0x04,
    0xba, 0x48, 0x01, 0xd0, 0xff, 0xe0, 0xb8, 0x0a, 0x00, 0x00, 0x00, 0xc3, 0xc3, 0xf9, 0xff,
    0xff, 0xff, 0x00, 0x00, 0x10, 0x00};

TEST(JumpTable, MsvcImageBaseRelative) {
  Discovered d(Msvc);
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->jump, 0x1019u);
  EXPECT_EQ(table->shape, JumpTable::Shape::BaseRelative);
  EXPECT_EQ(table->table, 0x1030u);
  EXPECT_EQ(table->targets, (std::vector<uint64_t>{0x101b, 0x1021, 0x1027, 0x1021}));
  EXPECT_EQ(table->distinctTargets(), (std::vector<uint64_t>{0x101b, 0x1021, 0x1027}));
  EXPECT_EQ(table->indexRegister, ZYDIS_REGISTER_RAX);
  EXPECT_EQ(table->indexValues, (std::vector<uint64_t>{0, 1, 2, 3}));
  // Each target is a block of the function, reached from the jmp.
  for (uint64_t target : table->distinctTargets())
    EXPECT_TRUE(d.function.explored.blocks.count(target));
  EXPECT_TRUE(d.function.unresolvedJumps.empty());
}

TEST(JumpTable, AbsoluteWithMask) {
  Discovered d(AbsoluteMasked);
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->shape, JumpTable::Shape::Absolute);
  EXPECT_EQ(table->table, 0x1028u);
  EXPECT_EQ(table->targets, (std::vector<uint64_t>{0x100a, 0x1010, 0x1016, 0x101c}));
  EXPECT_EQ(table->loadAt, 0x1003u);   // the jmp reads the entry itself
  EXPECT_EQ(table->indexRegister, ZYDIS_REGISTER_RDI);
}

TEST(JumpTable, BiasedTableRelative) {
  Discovered d(BiasedPic);
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->shape, JumpTable::Shape::TableRelative);
  EXPECT_EQ(table->table, 0x1030u);
  EXPECT_EQ(table->targets, (std::vector<uint64_t>{0x1018, 0x101e, 0x1024}));
  EXPECT_EQ(table->indexValues, (std::vector<uint64_t>{0, 1, 2}));
}

TEST(JumpTable, NoBoundStaysUnresolved) {
  Discovered d(Unbounded);
  EXPECT_TRUE(d.function.explored.jumpTables.empty());
  ASSERT_EQ(d.function.unresolvedJumps.size(), 1u);
  EXPECT_EQ(d.function.unresolvedJumps[0].jump, 0x100eu);
  EXPECT_FALSE(d.function.unresolvedJumps[0].reason.empty());
}

TEST(JumpTable, TableLargerThanTheBudgetStaysUnresolved) {
  // BiasedPic's table has three entries: a budget of three resolves it, two leave the jmp to
  // __hoist_jmp (a hostile bound of 2^32 entries costs nothing).
  LiftOptions options;
  options.maxJumpTableEntries = 3;
  EXPECT_NE(Discovered(BiasedPic, {}, options).onlyTable(), nullptr);
  options.maxJumpTableEntries = 2;
  Discovered d(BiasedPic, {}, options);
  EXPECT_TRUE(d.function.explored.jumpTables.empty());
  ASSERT_EQ(d.function.unresolvedJumps.size(), 1u);
  EXPECT_EQ(d.function.unresolvedJumps[0].jump, 0x1016u);
}

TEST(JumpTable, EntryOutsideCodeRejectsTheTable) {
  Discovered d(EntryOutside);
  EXPECT_TRUE(d.function.explored.jumpTables.empty());
  EXPECT_EQ(d.function.unresolvedJumps.size(), 1u);
}

TEST(JumpTable, LiftedAsSwitchOverTheIndex) {
  llvm::LLVMContext context;
  std::unique_ptr<Image> image;
  std::unique_ptr<Lifter> lifter;
  const llvm::SwitchInst *switchInst = liftedSwitch(Msvc, context, image, lifter);
  ASSERT_NE(switchInst, nullptr);
  EXPECT_EQ(switchInst->getNumCases(), 4u);
  // Out-of-table values leave as an unresolved jmp would.
  EXPECT_TRUE(switchInst->getDefaultDest()->getName().starts_with("jt_default_"));
  unsigned jmpCalls = 0;
  for (const llvm::Instruction &inst : *switchInst->getDefaultDest())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      jmpCalls += call->getCalledFunction()->getName() == "__hoist_jmp";
  EXPECT_EQ(jmpCalls, 1u);
}

TEST(JumpTable, AbsoluteLiftedAsSwitch) {
  llvm::LLVMContext context;
  std::unique_ptr<Image> image;
  std::unique_ptr<Lifter> lifter;
  const llvm::SwitchInst *switchInst = liftedSwitch(AbsoluteMasked, context, image, lifter);
  ASSERT_NE(switchInst, nullptr);
  EXPECT_EQ(switchInst->getNumCases(), 4u);
}

TEST(JumpTable, UnresolvedJumpKeepsHoistJmp) {
  llvm::LLVMContext context;
  std::unique_ptr<Image> image;
  std::unique_ptr<Lifter> lifter;
  EXPECT_EQ(liftedSwitch(Unbounded, context, image, lifter), nullptr);
}

} // namespace

// MSVC's byte index table in front of the target table (tests/cfg/index_table.s is the same
// shape in whole binaries):
//   1000: cmp ecx, 5; ja dflt; mov eax, ecx; lea rdx, [rip-0xe]   ; rdx = 0x1000 (at 0x1007)
//   100e: movzx eax, byte [rdx+rax+0x38]                           ; idx at 0x1038
//   1016: mov ecx, [rdx+rax*4+0x40]; add rcx, rdx; jmp rcx (1020) ; targets at 0x1040
//   1022/1028/102e: mov eax, 1/2/3; ret    1034: xor eax, eax; ret
//   1038: idx = 0 1 0 2 1 2               1040: .long 0x22, 0x28, 0x2e
const std::vector<uint8_t> ByteIndexed = {
    0x83, 0xf9, 0x05, 0x77, 0x2f, 0x89, 0xc8, 0x48, 0x8d, 0x15, 0xf2, 0xff, 0xff, 0xff, 0x0f,
    0xb6, 0x84, 0x02, 0x38, 0x00, 0x00, 0x00, 0x8b, 0x8c, 0x82, 0x40, 0x00, 0x00, 0x00, 0x48,
    0x01, 0xd1, 0xff, 0xe1, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x02, 0x00, 0x00, 0x00,
    0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0x31, 0xc0, 0xc3, 0x90, 0x00, 0x01, 0x00, 0x02,
    0x01, 0x02, 0x66, 0x90, 0x22, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x2e, 0x00, 0x00,
    0x00};

TEST(JumpTable, ByteIndexTableInFrontOfTheTargets) {
  Discovered d(ByteIndexed);
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->jump, 0x1020u);
  EXPECT_EQ(table->shape, JumpTable::Shape::BaseRelative);
  EXPECT_EQ(table->table, 0x1040u);
  EXPECT_EQ(table->indexTable, 0x1038u);
  EXPECT_EQ(table->indexEntrySize, 1u);
  // One target per value of the bounded index, through the byte table.
  EXPECT_EQ(table->targets,
            (std::vector<uint64_t>{0x1022, 0x1028, 0x1022, 0x102e, 0x1028, 0x102e}));
  // The switch is over the register that selects the byte, where the byte is loaded.
  EXPECT_EQ(table->loadAt, 0x100eu);
  EXPECT_EQ(table->indexRegister, ZYDIS_REGISTER_RAX);
  EXPECT_EQ(table->indexValues, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
}

// cmp word [rdi+0x68], 2; mov [rsp-8], rsi; ja 9f; movzx eax, word [rdi+0x68]
// lea rdx, [rip+table]; movsxd rax, [rdx+rax*4]; add rax, rdx; jmp rax
// 0..2: mov eax,N; ret; 9: xor eax,eax; ret; table: .long 0b-table, 1b-table, 2b-table
// The field compared is read again after a spill to the stack (coreutils' chmod): the spill
// does not change it, so the compare bounds the index.
TEST(JumpTable, BoundSurvivesASpillBetweenCompareAndLoad) {
  Discovered d({0x66, 0x83, 0x7f, 0x68, 0x02, 0x48, 0x89, 0x74, 0x24, 0xf8, 0x77, 0x26, 0x0f,
                0xb7, 0x47, 0x68, 0x48, 0x8d, 0x15, 0x1e, 0x00, 0x00, 0x00, 0x48, 0x63, 0x04,
                0x82, 0x48, 0x01, 0xd0, 0xff, 0xe0, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xb8,
                0x02, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0x31, 0xc0,
                0xc3, 0xeb, 0xff, 0xff, 0xff, 0xf1, 0xff, 0xff, 0xff, 0xf7, 0xff, 0xff, 0xff});
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->targets, (std::vector<uint64_t>{0x1020, 0x1026, 0x102c}));
}

// cmp dword [rdi+0x34], 2; mov [rdi+0x3c], edx; ja 9f; mov ecx, [rdi+0x34]
// lea rsi, [rip+table]; movsxd rcx, [rsi+rcx*4]; add rcx, rsi; jmp rcx
// 0..2: mov eax,N; ret; 9: xor eax,eax; ret; table: .long 0b-table, 1b-table, 2b-table
// Another field of the same object is stored between the compare and the reload (GNU indent):
// its bytes are apart from the compared field's, so the compare still bounds the index.
const std::vector<uint8_t> FieldStoredBetween = {
    0x83, 0x7f, 0x34, 0x02, 0x89, 0x57, 0x3c, 0x77, 0x25, 0x8b, 0x4f, 0x34, 0x48, 0x8d, 0x35,
    0x1e, 0x00, 0x00, 0x00, 0x48, 0x63, 0x0c, 0x8e, 0x48, 0x01, 0xf1, 0xff, 0xe1, 0xb8, 0x01,
    0x00, 0x00, 0x00, 0xc3, 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00,
    0xc3, 0x31, 0xc0, 0xc3, 0xeb, 0xff, 0xff, 0xff, 0xf1, 0xff, 0xff, 0xff, 0xf7, 0xff, 0xff,
    0xff};

TEST(JumpTable, BoundSurvivesAStoreToAnotherField) {
  Discovered d(FieldStoredBetween);
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->bound, JumpTable::Bound::Compare);
  EXPECT_EQ(table->targets, (std::vector<uint64_t>{0x101c, 0x1022, 0x1028}));
}

// The same, but the store (`mov [rdi+0x36], dx`) overwrites the upper half of the compared
// field: the reloaded index is not the value compared, and nothing else bounds it.
TEST(JumpTable, StoreIntoTheComparedFieldDropsTheBound) {
  Discovered d({0x83, 0x7f, 0x34, 0x02, 0x66, 0x89, 0x57, 0x36, 0x77, 0x25, 0x8b, 0x4f, 0x34,
                0x48, 0x8d, 0x35, 0x1e, 0x00, 0x00, 0x00, 0x48, 0x63, 0x0c, 0x8e, 0x48, 0x01,
                0xf1, 0xff, 0xe1, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x02, 0x00, 0x00,
                0x00, 0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0x31, 0xc0, 0xc3, 0xeb, 0xff,
                0xff, 0xff, 0xf1, 0xff, 0xff, 0xff, 0xf7, 0xff, 0xff, 0xff});
  EXPECT_TRUE(d.function.explored.jumpTables.empty());
  EXPECT_EQ(d.function.unresolvedJumps.size(), 1u);
}

// movzx eax, byte [rdi+8]; lea rdx, [rip+table]; movsxd rax, [rdx+rax*4]; add rax, rdx
// jmp rax; 0..2: mov eax,N; ret
// table: .long 0b-table, 1b-table, 2b-table, 1b-table, 0x7ffffff0, 0b-table
// No compare: the index is a byte (gawk's and gnulib's `switch (node->type)`), so at most 256
// entries; the compiler's table (here 4 entries) ends before the first entry that is not an
// instruction of the function (the function ends where the table starts, at 0x1026).
const std::vector<uint8_t> ByteIndex = {
    0x0f, 0xb6, 0x47, 0x08, 0x48, 0x8d, 0x15, 0x1b, 0x00, 0x00, 0x00, 0x48, 0x63, 0x04, 0x82,
    0x48, 0x01, 0xd0, 0xff, 0xe0, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x02, 0x00, 0x00,
    0x00, 0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xee, 0xff, 0xff, 0xff, 0xf4, 0xff, 0xff,
    0xff, 0xfa, 0xff, 0xff, 0xff, 0xf4, 0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0x7f, 0xee, 0xff,
    0xff, 0xff};

TEST(JumpTable, ByteIndexBoundedByItsWidth) {
  Discovered d(ByteIndex, {}, {}, Base + 0x26);
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->bound, JumpTable::Bound::IndexWidth);
  EXPECT_EQ(table->targets, (std::vector<uint64_t>{0x1014, 0x101a, 0x1020, 0x101a}));
  EXPECT_EQ(table->indexRegister, ZYDIS_REGISTER_RAX);
  EXPECT_TRUE(d.function.unresolvedJumps.empty());
  // Without the function's extent nothing tells where its code ends: left unresolved.
  Discovered unknownExtent(ByteIndex);
  EXPECT_TRUE(unknownExtent.function.explored.jumpTables.empty());
  EXPECT_EQ(unknownExtent.function.unresolvedJumps.size(), 1u);
}

// A case label that is another function's start (the function's own `.cold` part, which has
// an unwind entry of its own: coreutils' od) leaves the table a switch, not tail calls.
TEST(JumpTable, OneTargetAtAFunctionStartIsStillASwitch) {
  Discovered d(Msvc, {Base, 0x1027});
  const JumpTable *table = d.onlyTable();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->distinctTargets(), (std::vector<uint64_t>{0x101b, 0x1021, 0x1027}));
  EXPECT_TRUE(d.function.tailCalls.empty());
}

// Every target another function's start: a table of function pointers, lifted as tail calls.
TEST(JumpTable, EveryTargetAtAFunctionStartIsATableOfTailCalls) {
  Discovered d(Msvc, {Base, 0x101b, 0x1021, 0x1027});
  EXPECT_EQ(d.onlyTable(), nullptr);
  EXPECT_EQ(d.function.tailCalls, (std::vector<uint64_t>{0x101b, 0x1021, 0x1027}));
  EXPECT_TRUE(d.function.explored.tailCallTables.count(0x1019));
}
