// mayReachAnEffect: an entry value a flag keeps from every effect, followed path by path, and
// the same shapes where a path lets it through.
#include "Passes/GuardedValues.h"

#include "ParseModule.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/DemandedBits.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

/// Whether @fn's argument %seed may reach an effect; a store of it, or of a merge that is
/// %seed on the path, into @saved or an alloca is harmless (a register saved as it is).
bool reaches(const std::string &body, unsigned budget = 20000) {
  llvm::LLVMContext context;
  std::string text = "@saved = global i64 0\n"
                     "@out = global i64 0\n"
                     "declare i64 @next(i64)\n"
                     "define void @fn(i64 %seed, i64 %x, ptr %p) {\n" +
                     body + "}\n";
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  EXPECT_TRUE(module);
  if (!module)
    return true;
  llvm::Function &function = *module->getFunction("fn");
  llvm::AssumptionCache assumptions(function);
  llvm::DominatorTree dominators(function);
  llvm::DemandedBits demanded(function, assumptions, dominators);
  const llvm::GlobalVariable *saved = module->getGlobalVariable("saved");
  return mayReachAnEffect(
      *function.getArg(0),
      [&](const llvm::Use &use, bool unchanged) {
        const auto *store = llvm::dyn_cast<llvm::StoreInst>(use.getUser());
        return unchanged && store && use.getOperandNo() == 0 &&
               (store->getPointerOperand() == saved ||
                llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(store->getPointerOperand())));
      },
      demanded, budget);
}

// bzip2: `for (...) if (c) { found = 1; last = v; } if (found) out = last;`
const char *FoundLast = R"(
entry:
  store i64 %seed, ptr @saved
  br label %loop
loop:
  %last = phi i64 [ %seed, %entry ], [ %last.next, %loop ]
  %found = phi i32 [ 0, %entry ], [ %found.next, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %v = call i64 @next(i64 %i)
  %c = icmp eq i64 %v, 47
  %last.next = select i1 %c, i64 %v, i64 %last
  %found.next = select i1 %c, i32 1, i32 %found
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %x
  br i1 %more, label %loop, label %done
done:
  %low = and i32 %found.next, 255
  %none = icmp TEST i32 %low, 0
  br i1 %none, label %exit, label %store
store:
  store i64 %last.next, ptr @out
  br label %exit
exit:
  ret void
)";

/// `shape` with its placeholder `hole` filled with `filling`.
std::string filled(const char *shape, const std::string &hole, const std::string &filling) {
  std::string text = shape;
  text.replace(text.find(hole), hole.size(), filling);
  return text;
}

std::string withTest(const std::string &predicate) { return filled(FoundLast, "TEST", predicate); }

TEST(GuardedValues, FlagSetWithTheValueGuardsTheStore) {
  EXPECT_FALSE(reaches(withTest("eq")));
}

TEST(GuardedValues, StoreWhereTheFlagIsClearSeesTheEntryValue) {
  EXPECT_TRUE(reaches(withTest("ne")));
}

// tar: `first` set on odd turns, stored with the next number on even ones; `odd` alternates.
std::string pairs(const char *start) {
  return std::string(R"(
entry:
  br label %loop
loop:
  %first = phi i64 [ %seed, %entry ], [ %first.next, %latch ]
  %odd = phi i32 [ )") + start + R"(, %entry ], [ %odd.next, %latch ]
  %v = call i64 @next(i64 %x)
  %even = icmp eq i32 %odd, 0
  br i1 %even, label %pair, label %keep
pair:
  store i64 %first, ptr %p
  br label %latch
keep:
  br label %latch
latch:
  %first.next = phi i64 [ %first, %pair ], [ %v, %keep ]
  %odd.next = xor i32 %odd, 1
  %more = icmp ne i64 %v, 0
  br i1 %more, label %loop, label %exit
exit:
  ret void
)";
}

TEST(GuardedValues, AlternatingFlagKeepsTheFirstTurnFromTheStore) {
  EXPECT_FALSE(reaches(pairs("1")));
}

TEST(GuardedValues, AlternationFromTheOtherTurnStoresTheEntryValue) {
  EXPECT_TRUE(reaches(pairs("0")));
}

// The caller's upper bits beside a byte (`sete %r12b; mov %r12d, %ecx; mov %cl, (%p)`).
TEST(GuardedValues, BitsAboveAStoredByteCarryNothing) {
  EXPECT_FALSE(reaches(R"(
entry:
  %upper = and i64 %seed, -256
  %c = icmp eq i64 %x, 0
  %bit = zext i1 %c to i64
  %merged = or i64 %upper, %bit
  %flipped = xor i64 %merged, 1
  %byte = trunc i64 %flipped to i8
  store i8 %byte, ptr %p
  ret void
)"));
  EXPECT_TRUE(reaches(R"(
entry:
  %upper = and i64 %seed, -256
  %merged = or i64 %upper, 1
  %word = trunc i64 %merged to i16
  store i16 %word, ptr %p
  ret void
)"));
}

TEST(GuardedValues, EveryKindOfEffectSeesATaintedOperand) {
  EXPECT_TRUE(reaches("  %a = inttoptr i64 %seed to ptr\n  %v = load i8, ptr %a\n  ret void\n"));
  EXPECT_TRUE(reaches("  %r = call i64 @next(i64 %seed)\n  ret void\n"));
  EXPECT_TRUE(reaches("  %c = icmp eq i64 %seed, 0\n  br i1 %c, label %a, label %b\n"
                      "a:\n  ret void\nb:\n  ret void\n"));
  EXPECT_TRUE(reaches("  %s = add i64 %seed, %x\n  store i64 %s, ptr %p\n  ret void\n"));
  EXPECT_FALSE(reaches("  %s = add i64 %x, 1\n  store i64 %s, ptr %p\n  ret void\n"));
}

// ls's quote-and-count function: a register set only where a pointer spilled to the frame is
// not null, stored through the pointer after it is reloaded and tested again.
const char *Reloaded = R"(
entry:
  %frame = alloca [16 x i8]
  %slot = getelementptr inbounds i8, ptr %frame, i64 8
  store i64 %x, ptr %slot
  %first = load i64, ptr %slot
  %null = icmp eq i64 %first, 0
  br i1 %null, label %join, label %set
set:
  %v = call i64 @next(i64 %first)
  br label %join
join:
  %reg = phi i64 [ %seed, %entry ], [ %v, %set ]
  BETWEEN
  %second = load i64, ptr %slot
  %again = icmp eq i64 %second, 0
  br i1 %again, label %exit, label %store
store:
  %to = inttoptr i64 %second to ptr
  store i64 %reg, ptr %to
  br label %exit
exit:
  %late = ptrtoint ptr %frame to i64
  %r = call i64 @next(i64 %late)
  ret void
)";

std::string between(const std::string &instructions) {
  return filled(Reloaded, "BETWEEN", instructions);
}

TEST(GuardedValues, ReloadedSlotHoldsWhatTheFirstTestSaw) {
  EXPECT_FALSE(reaches(between("")));
  // The frame's address is handed on only later: a call cannot write it yet.
  EXPECT_FALSE(reaches(between("%c = call i64 @next(i64 0)")));
  // A store of a number the path knows.
  EXPECT_FALSE(reaches(between("store i64 0, ptr %slot")));
}

TEST(GuardedValues, WriteBetweenTheTestsLetsTheEntryValueThrough) {
  EXPECT_TRUE(reaches(between("store i64 1, ptr %slot")));
  EXPECT_TRUE(reaches(between("%pointer = ptrtoint ptr %p to i64\n"
                              "  store i64 %pointer, ptr %slot")));
  EXPECT_TRUE(reaches(between("%e = ptrtoint ptr %frame to i64\n"
                              "  %c = call i64 @next(i64 %e)")));
  EXPECT_TRUE(reaches(between("%e = ptrtoint ptr %frame to i64\n"
                              "  store i64 1, ptr %p")));
  // A store into the frame at an offset not known, or overlapping the slot.
  EXPECT_TRUE(reaches(between("%q = getelementptr i8, ptr %frame, i64 %x\n"
                              "  store i64 1, ptr %q")));
  EXPECT_TRUE(reaches(between("%q = getelementptr i8, ptr %frame, i64 12\n"
                              "  store i32 1, ptr %q")));
}

TEST(GuardedValues, SavedRegisterReadBackAndUsedIsSeen) {
  const char *frame = "  %frame = alloca [16 x i8]\n  store i64 %seed, ptr %frame\n";
  EXPECT_TRUE(reaches(std::string(frame) +
                      "  %back = load i64, ptr %frame\n  store i64 %back, ptr @out\n"
                      "  ret void\n"));
  // A part of the saved bits, after a call that may write memory.
  EXPECT_TRUE(reaches(std::string(frame) +
                      "  %c = call i64 @next(i64 0)\n"
                      "  %half = getelementptr i8, ptr %frame, i64 4\n"
                      "  %back = load i8, ptr %half\n  %wide = zext i8 %back to i64\n"
                      "  store i64 %wide, ptr @out\n  ret void\n"));
  // Half of the saved copy overwritten, then reported as the result: not the register as it
  // came.
  EXPECT_TRUE(reaches(std::string(frame) +
                      "  %high = getelementptr i8, ptr %frame, i64 4\n"
                      "  store i32 7, ptr %high\n"
                      "  %back = load i64, ptr %frame\n  store i64 %back, ptr @saved\n"
                      "  ret void\n"));
  // Restored and saved again, as it came.
  EXPECT_FALSE(reaches(std::string(frame) +
                       "  %c = call i64 @next(i64 0)\n"
                       "  %back = load i64, ptr %frame\n  store i64 %back, ptr %frame\n"
                       "  ret void\n"));
}

// ls's `main`: a register pushed to align the stack for a call, popped after it, and pushed
// again on the next turn of a loop.
const char *PushedInALoop = R"(
entry:
  %frame = alloca [16 x i8]
  br label %loop
loop:
  %r = phi i64 [ %seed, %entry ], [ %back, %loop ]
  store i64 %r, ptr %frame
  %c = call i64 @next(i64 %x)
  %back = load i64, ptr %frame
  %more = icmp ult i64 %c, 10
  br i1 %more, label %loop, label %done
done:
  AFTER
  ret void
)";

TEST(GuardedValues, RegisterPushedOnEveryTurnIsOnlySaved) {
  EXPECT_FALSE(reaches(filled(PushedInALoop, "AFTER", "")));
  EXPECT_TRUE(reaches(filled(PushedInALoop, "AFTER", "store i64 %back, ptr @out")));
  EXPECT_TRUE(reaches(filled(PushedInALoop, "AFTER", "store i64 %r, ptr @out")));
}

TEST(GuardedValues, TooManyPathsCountAsReaching) {
  EXPECT_TRUE(reaches(withTest("eq"), 3));
}

} // namespace
} // namespace hoist
