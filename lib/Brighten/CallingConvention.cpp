#include "Brighten/CallingConvention.h"

namespace hoist {

std::optional<CallingConvention> parseCallingConvention(llvm::StringRef name) {
  if (name == "sysv")
    return CallingConvention::SysV;
  if (name == "win64")
    return CallingConvention::Win64;
  return std::nullopt;
}

CallingConvention defaultCallingConvention(ImageFormat format) {
  return format == ImageFormat::Pe ? CallingConvention::Win64 : CallingConvention::SysV;
}

const char *callingConventionName(CallingConvention convention) {
  return convention == CallingConvention::Win64 ? "win64" : "sysv";
}

llvm::ArrayRef<HoistStateField> integerArgumentRegisters(CallingConvention convention) {
  static const HoistStateField sysv[] = {HOIST_FIELD_RDI, HOIST_FIELD_RSI, HOIST_FIELD_RDX,
                                         HOIST_FIELD_RCX, HOIST_FIELD_R8,  HOIST_FIELD_R9};
  static const HoistStateField win64[] = {HOIST_FIELD_RCX, HOIST_FIELD_RDX, HOIST_FIELD_R8,
                                          HOIST_FIELD_R9};
  if (convention == CallingConvention::Win64)
    return win64;
  return sysv;
}

unsigned floatArgumentRegisterCount(CallingConvention convention) {
  return convention == CallingConvention::Win64 ? 4 : 8;
}

unsigned homeAreaBytes(CallingConvention convention) {
  return convention == CallingConvention::Win64 ? 32 : 0;
}

uint64_t stackArgumentOffset(unsigned index, CallingConvention convention) {
  return 8 + homeAreaBytes(convention) + 8 * uint64_t(index);
}

bool isCalleeSaved(HoistStateField field, CallingConvention convention) {
  switch (field) {
  case HOIST_FIELD_RBX:
  case HOIST_FIELD_RBP:
  case HOIST_FIELD_R12:
  case HOIST_FIELD_R13:
  case HOIST_FIELD_R14:
  case HOIST_FIELD_R15:
    return true;
  case HOIST_FIELD_RDI:
  case HOIST_FIELD_RSI:
    return convention == CallingConvention::Win64;
  default:
    return false;
  }
}

llvm::CallingConv::ID llvmCallingConvention(CallingConvention convention) {
  return convention == CallingConvention::Win64 ? llvm::CallingConv::Win64
                                                : llvm::CallingConv::C;
}

} // namespace hoist
