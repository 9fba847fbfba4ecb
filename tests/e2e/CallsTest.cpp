// Lifted functions that call lifted functions (recursion, mutual tail calls, many callee-saved
// registers) run through ORC JIT on a State with a real stack and must compute what the native
// functions compute, return to the address their caller pushed and keep what the ABI keeps.
#include "JitRunner.h"
#include "calls.h"

#include "hoist/Image.h"
#include "hoist/State.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace hoist;
using namespace hoist::test;

namespace {

constexpr uint64_t ReturnSentinel = 0x5e471e1;   // where the lifted function must return to

/// A State entering a function as a call would: arguments in registers, the return address on
/// top of a real (host) stack, RSP = 8 mod 16 as the System V ABI has it at entry.
class Call {
public:
  Call() : stack_(1 << 20) {
    std::memset(&state, 0, sizeof state);
    uint64_t top = reinterpret_cast<uint64_t>(stack_.data() + stack_.size()) & ~uint64_t(15);
    state.RSP = top - 8;
    std::memcpy(reinterpret_cast<void *>(state.RSP), &ReturnSentinel, 8);
    state.MXCSR = 0x1f80;
    state.FPU_CW = 0x37f;
    // Callee-saved registers hold values the callee must give back.
    state.RBX = 0x1111, state.RBP = 0x2222, state.R12 = 0x3333, state.R13 = 0x4444;
    state.R14 = 0x5555, state.R15 = 0x6666;
  }

  /// Runs `runner` and checks that the function returned to the sentinel as the ABI says.
  void run(JitRunner &runner) {
    uint64_t entryRsp = state.RSP;
    StateRun result = runner.runOnState(state);
    ASSERT_FALSE(result.hostCrash) << "signal " << result.fault.signal << "\n" << runner.ir();
    EXPECT_EQ(result.firstExit, ExitKind::None)
        << "left through an intrinsic at 0x" << std::hex << result.exitAddress;
    EXPECT_EQ(state.RIP, ReturnSentinel);
    EXPECT_EQ(state.RSP, entryRsp + 8);
    EXPECT_EQ(state.RBX, 0x1111u);
    EXPECT_EQ(state.RBP, 0x2222u);
    EXPECT_EQ(state.R12, 0x3333u);
    EXPECT_EQ(state.R13, 0x4444u);
    EXPECT_EQ(state.R14, 0x5555u);
    EXPECT_EQ(state.R15, 0x6666u);
  }

  HoistState state;

private:
  std::vector<uint8_t> stack_;
};

/// Runs the lifted function with `argument` in RDI and compares RAX (as the native function's
/// return type) with the native call.
template <typename Result, typename Argument>
void expectSameResult(JitRunner &runner, Result (*native)(Argument), Argument argument) {
  Call call;
  call.state.RDI = static_cast<uint64_t>(argument);
  call.run(runner);
  EXPECT_EQ(static_cast<Result>(call.state.RAX), native(argument)) << "argument " << argument;
}

class LiftedCalls : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    llvm::Expected<std::unique_ptr<Image>> loaded = Image::load(GetParam());
    ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
    image_ = std::move(*loaded);
  }

  std::unique_ptr<JitRunner> lift(const char *name) {
    std::optional<uint64_t> entry = image_->lookupSymbol(name);
    if (!entry) {
      ADD_FAILURE() << "no symbol " << name;
      return nullptr;
    }
    llvm::Expected<std::unique_ptr<JitRunner>> runner =
        JitRunner::createWithCallees(*image_, *entry);
    if (!runner) {
      ADD_FAILURE() << llvm::toString(runner.takeError());
      return nullptr;
    }
    EXPECT_EQ((*runner)->diagnostics(), "");
    return std::move(*runner);
  }

  std::unique_ptr<Image> image_;
};

TEST_P(LiftedCalls, RecursiveFibonacciMatchesNative) {
  std::unique_ptr<JitRunner> runner = lift("fib");
  ASSERT_TRUE(runner);
  // The lifted fib calls itself as an LLVM function, not through the runtime.
  EXPECT_NE(runner->ir().find("call void @fib("), std::string::npos);
  EXPECT_EQ(runner->ir().find("@__hoist_call("), std::string::npos) << runner->ir();
  for (long n : {0L, 1L, 2L, 7L, 15L, 20L})
    expectSameResult(*runner, fib, n);
}

TEST_P(LiftedCalls, RecursionOverHostMemoryMatchesNative) {
  std::unique_ptr<JitRunner> runner = lift("sum_array");
  ASSERT_TRUE(runner);
  std::vector<long> values;
  for (long i = 0; i < 500; ++i)
    values.push_back(i * i - 7 * i);
  Call call;
  call.state.RDI = reinterpret_cast<uint64_t>(values.data());
  call.state.RSI = values.size();
  call.run(*runner);
  EXPECT_EQ(static_cast<long>(call.state.RAX), sum_array(values.data(), values.size()));
}

TEST_P(LiftedCalls, LoopCallingAHelperMatchesNative) {
  std::unique_ptr<JitRunner> runner = lift("sum_of_squares");
  ASSERT_TRUE(runner);
  for (long n : {0L, 1L, 10L, 1000L})
    expectSameResult(*runner, sum_of_squares, n);
}

TEST_P(LiftedCalls, MutualRecursionMatchesNative) {
  std::unique_ptr<JitRunner> runner = lift("is_even");
  ASSERT_TRUE(runner);
  for (unsigned n : {0u, 1u, 2u, 17u, 300u})
    expectSameResult(*runner, is_even, n);
}

TEST_P(LiftedCalls, CalleeSavedRegistersSurviveDeepRecursion) {
  std::unique_ptr<JitRunner> runner = lift("weighted");
  ASSERT_TRUE(runner);
  for (long a : {0L, 3L, 40L}) {
    Call call;
    call.state.RDI = a, call.state.RSI = 2, call.state.RDX = -5, call.state.RCX = 9;
    call.run(*runner);
    EXPECT_EQ(static_cast<long>(call.state.RAX), weighted(a, 2, -5, 9)) << a;
  }
}

INSTANTIATE_TEST_SUITE_P(GccLevels, LiftedCalls, ::testing::Values(HOIST_CALLS_O0, HOIST_CALLS_O2),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                           return std::string(info.index == 0 ? "O0" : "O2");
                         });

// Hand-written code for the shapes a compiler does not emit on demand.
constexpr uint64_t RawBase = 0x10000;

std::unique_ptr<JitRunner> liftRaw(const std::vector<uint8_t> &code) {
  std::unique_ptr<Image> image = Image::fromRawBytes(code, RawBase);
  llvm::Expected<std::unique_ptr<JitRunner>> runner = JitRunner::createWithCallees(*image, RawBase);
  if (!runner) {
    ADD_FAILURE() << llvm::toString(runner.takeError());
    return nullptr;
  }
  return std::move(*runner);
}

TEST(LiftedCallsRaw, CallThroughAConstantRegisterIsADirectCall) {
  // 0x00: lea rax, [rip+9] (-> 0x10); call rax; add rax, 1; ret
  // 0x10: mov eax, 41; ret
  std::unique_ptr<JitRunner> runner = liftRaw({0x48, 0x8d, 0x05, 0x09, 0x00, 0x00, 0x00,   // lea
                                               0xff, 0xd0,                                 // call rax
                                               0x48, 0x83, 0xc0, 0x01,                     // add
                                               0xc3, 0x90, 0x90,                           // ret
                                               0xb8, 0x29, 0x00, 0x00, 0x00, 0xc3});
  ASSERT_TRUE(runner);
  EXPECT_NE(runner->ir().find("call void @fn_10010("), std::string::npos) << runner->ir();
  Call call;
  call.run(*runner);
  EXPECT_EQ(call.state.RAX, 42u);
}

TEST(LiftedCallsRaw, CalleeThatReturnsElsewhereLeavesThroughJmp) {
  // 0x00: call 0x10; mov eax, 1; ret          (never reached: the callee skips it)
  // 0x10: add rsp, 8; mov eax, 2; ret         (drops its return address: returns to ours)
  std::unique_ptr<JitRunner> runner = liftRaw({0xe8, 0x0b, 0x00, 0x00, 0x00,               // call
                                               0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3,          // mov; ret
                                               0x90, 0x90, 0x90, 0x90, 0x90,
                                               0x48, 0x83, 0xc4, 0x08,                      // add rsp
                                               0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3});        // mov; ret
  ASSERT_TRUE(runner);
  Call call;
  uint64_t entryRsp = call.state.RSP;
  StateRun result = runner->runOnState(call.state);
  ASSERT_FALSE(result.hostCrash);
  // The caller saw RIP != its return address and handed control on, with State exact.
  EXPECT_EQ(result.firstExit, ExitKind::Jmp);
  EXPECT_EQ(result.exitAddress, ReturnSentinel);
  EXPECT_EQ(call.state.RIP, ReturnSentinel);
  EXPECT_EQ(call.state.RSP, entryRsp + 8);
  EXPECT_EQ(call.state.RAX, 2u);
}

} // namespace
