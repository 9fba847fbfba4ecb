// ImageData: accesses to the binary's own data at its original addresses, which mean nothing
// in the process the brightened function is linked into.
//
// An `inttoptr` whose address is a constant inside a read-only, non-executable section plus
// any offset (a lookup table indexed by a register) becomes a gep into a private constant
// global carrying that section's bytes (`@"image.<section>"`). A constant inside any other
// section (writable data: globals, whose state belongs to the original process) is not
// rewritten: the function gets the attribute "hoist-image-data" with the address, and
// brightening declines it.
#pragma once

#include <llvm/IR/Constant.h>
#include <llvm/IR/PassManager.h>

namespace hoist {

class Image;

inline constexpr const char *ImageDataAttribute = "hoist-image-data";

class ImageDataPass : public llvm::PassInfoMixin<ImageDataPass> {
public:
  explicit ImageDataPass(const Image &image) : image_(image) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);

private:
  /// A pointer to `address` in its read-only section's global, or null (not image memory, or
  /// memory the function may not take along: then the attribute is set).
  llvm::Constant *imagePointer(llvm::Function &function, uint64_t address) const;

  const Image &image_;
};

} // namespace hoist
