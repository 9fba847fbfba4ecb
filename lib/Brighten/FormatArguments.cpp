#include "Brighten/FormatArguments.h"

#include <llvm/Support/FormatVariadic.h>

#include <cctype>
#include <optional>

namespace hoist {
namespace {

/// The text after the next `%` that starts a conversion (`%%` is a percent sign), with
/// `format` moved past that `%`; nullopt at the end.
std::optional<llvm::StringRef> nextConversion(llvm::StringRef &format) {
  for (size_t percent = format.find('%'); percent != llvm::StringRef::npos;
       percent = format.find('%')) {
    format = format.drop_front(percent + 1);
    if (!format.consume_front("%"))
      return format;
  }
  return std::nullopt;
}

/// Whether a conversion starts with an argument number (`%2$s`): POSIX lets a call pass its
/// arguments in any order then.
bool isNumbered(llvm::StringRef rest) {
  llvm::StringRef digits =
      rest.take_while([](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  return !digits.empty() && rest.drop_front(digits.size()).starts_with("$");
}

constexpr const char *NumberedReason =
    "numbers its arguments (%N$), which a call may pass in any order";

/// printf's length modifiers (C11 7.21.6.1 and glibc's q, Z): hh and h still pass an int.
enum class Length { Default, Long, LongDouble };

Length lengthOf(llvm::StringRef &rest) {
  for (llvm::StringRef wide : {"ll", "l", "q", "j", "z", "Z", "t"})
    if (rest.consume_front(wide))
      return Length::Long;
  if (rest.consume_front("L"))
    return Length::LongDouble;
  rest.consume_front("hh") || rest.consume_front("h");
  return Length::Default;
}

/// A width or precision: digits, or `*` (an int argument).
bool consumeCount(llvm::StringRef &rest, std::vector<FormatArgument> &arguments) {
  if (rest.consume_front("*")) {
    arguments.push_back(FormatArgument::Int32);
    return !rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front())) == 0;
  }
  rest = rest.drop_while([](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  return true;
}

std::variant<std::vector<FormatArgument>, std::string> printfArguments(llvm::StringRef format) {
  std::vector<FormatArgument> arguments;
  while (std::optional<llvm::StringRef> conversionText = nextConversion(format)) {
    llvm::StringRef rest = *conversionText;
    if (isNumbered(rest))
      return std::string(NumberedReason);
    rest = rest.drop_while([](char c) { return llvm::StringRef("-+ #0'I").contains(c); });
    if (!consumeCount(rest, arguments))
      return std::string("takes a width from a numbered argument (*N$)");
    if (rest.consume_front(".") && !consumeCount(rest, arguments))
      return std::string("takes a precision from a numbered argument (*N$)");
    Length length = lengthOf(rest);
    if (rest.empty())
      return std::string("ends inside a conversion");
    char conversion = rest.front();
    format = rest.drop_front();
    switch (conversion) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c': case 'C':
    case 'b': case 'B':
      if (length == Length::LongDouble)
        arguments.push_back(FormatArgument::Int64);   // glibc reads %Ld as long long
      else
        arguments.push_back(length == Length::Long ? FormatArgument::Int64
                                                   : FormatArgument::Int32);
      break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
      if (length == Length::LongDouble)
        return std::string("converts a long double (%L), which the System V ABI passes on "
                           "the stack in x87 form");
      arguments.push_back(FormatArgument::Double);
      break;
    case 's': case 'S': case 'p': case 'n':
      arguments.push_back(FormatArgument::Int64);
      break;
    case 'm':
      break;   // glibc: strerror(errno), no argument
    default:
      return llvm::formatv("has the conversion %{0}, which glibc does not define", conversion)
          .str();
    }
  }
  return arguments;
}

std::variant<std::vector<FormatArgument>, std::string> scanfArguments(llvm::StringRef format) {
  std::vector<FormatArgument> arguments;
  while (std::optional<llvm::StringRef> conversionText = nextConversion(format)) {
    llvm::StringRef rest = *conversionText;
    bool assigned = !rest.consume_front("*");
    if (isNumbered(rest))
      return std::string(NumberedReason);
    rest = rest.drop_while([](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    rest.consume_front("m");   // POSIX: allocate the string
    lengthOf(rest);
    if (rest.empty())
      return std::string("ends inside a conversion");
    char conversion = rest.front();
    rest = rest.drop_front();
    if (conversion == '[') {
      // A scan set: `]` first is a member, then up to the closing `]`.
      rest.consume_front("^");
      rest.consume_front("]");
      size_t close = rest.find(']');
      if (close == llvm::StringRef::npos)
        return std::string("ends inside a scan set");
      rest = rest.drop_front(close + 1);
    } else if (!llvm::StringRef("diouxXaAeEfFgGsScCpn").contains(conversion)) {
      return llvm::formatv("has the conversion %{0}, which glibc does not define", conversion)
          .str();
    }
    format = rest;
    if (assigned)
      arguments.push_back(FormatArgument::Int64);   // every assigned conversion: a pointer
  }
  return arguments;
}

} // namespace

std::variant<std::vector<FormatArgument>, std::string> formatArguments(llvm::StringRef format,
                                                                       FormatKind kind) {
  return kind == FormatKind::Printf ? printfArguments(format) : scanfArguments(format);
}

} // namespace hoist
