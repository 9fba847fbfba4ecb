// The fxsave image layout, shared by the native runner (fxrstor before, fxsave after) and the
// fault guard (the signal frame holds the same image).
#include "CpuState.h"

#include <cstring>

namespace hoist::test {
namespace {

constexpr unsigned FcwOffset = 0, FswOffset = 2, FtwOffset = 4, MxcsrOffset = 24;
constexpr unsigned StOffset = 32, StStride = 16, XmmOffset = 160;

} // namespace

void toFxsave(const FpState &fp, uint8_t image[512]) {
  std::memset(image, 0, 512);
  std::memcpy(image + FcwOffset, &fp.fcw, 2);
  std::memcpy(image + FswOffset, &fp.fsw, 2);
  image[FtwOffset] = fp.ftw;
  std::memcpy(image + MxcsrOffset, &fp.mxcsr, 4);
  for (unsigned i = 0; i < 8; ++i)
    std::memcpy(image + StOffset + i * StStride, fp.st[i], 10);
  for (unsigned i = 0; i < 16; ++i)
    std::memcpy(image + XmmOffset + i * 16, fp.ymm[i], 16);
}

void fromFxsave(const uint8_t image[512], FpState &fp) {
  std::memcpy(&fp.fcw, image + FcwOffset, 2);
  std::memcpy(&fp.fsw, image + FswOffset, 2);
  fp.ftw = image[FtwOffset];
  std::memcpy(&fp.mxcsr, image + MxcsrOffset, 4);
  for (unsigned i = 0; i < 8; ++i)
    std::memcpy(fp.st[i], image + StOffset + i * StStride, 10);
  for (unsigned i = 0; i < 16; ++i)
    std::memcpy(fp.ymm[i], image + XmmOffset + i * 16, 16);
}

} // namespace hoist::test
