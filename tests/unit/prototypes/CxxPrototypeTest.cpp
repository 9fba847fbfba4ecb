// Known C++ entries of the Linux table: libstdc++'s non-template functions (cxx_prototypes.py)
// and the members of its explicit instantiations (cxx_instantiations.py), under the symbols
// libstdc++.so.6 exports. A wrong class, a lost `this` or VTT, or a missing symbol fails here.
#include "PrototypeTestHelpers.h"

#include <vector>

using namespace hoist;
using namespace hoist::testing;

namespace {

const LibraryPrototype &prototype(llvm::StringRef name) {
  return entryOrNone(findLibraryPrototype(name), name.str());
}

std::vector<AbiType> parametersOf(llvm::StringRef name) {
  llvm::ArrayRef<AbiType> parameters = prototype(name).parameters();
  return {parameters.begin(), parameters.end()};
}

AbiType inMemory(uint16_t size) { return {AbiClass::StructInMemory, size}; }
AbiType inIntegerRegisters(uint16_t size) {
  return {AbiClass::StructInRegisters, size, Eightbyte::Integer,
          size > 8 ? Eightbyte::Integer : Eightbyte::None};
}

// std::__cxx11::basic_string<char>'s symbols start with this.
#define STRING "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"
#define CONST_STRING "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"

} // namespace

TEST(CxxPrototype, CxxRuntimeUnderMangledNames) {
  // operator delete(void*, unsigned long), operator new(unsigned long).
  const LibraryPrototype &sizedDelete = prototype("_ZdlPvm");
  EXPECT_EQ(sizedDelete.result.abiClass, AbiClass::Void);
  ASSERT_EQ(sizedDelete.parameters().size(), 2u);
  EXPECT_EQ(sizedDelete.parameters()[0], pointer(false));
  EXPECT_EQ(sizedDelete.parameters()[1], integer(8));
  EXPECT_TRUE(sizedDelete.isNoThrow());
  EXPECT_EQ(prototype("_Znwm").result, pointer(false));
  EXPECT_FALSE(prototype("_Znwm").isNoThrow()); // throws std::bad_alloc
  // std::__throw_length_error(const char*) never returns.
  const LibraryPrototype &lengthError = prototype("_ZSt20__throw_length_errorPKc");
  EXPECT_TRUE(lengthError.isNoReturn());
  ASSERT_EQ(lengthError.parameters().size(), 1u);
  EXPECT_EQ(lengthError.parameters()[0], pointer(true));
  // cxxabi.h's C entry points keep their C names.
  EXPECT_EQ(prototype("__cxa_guard_acquire").result, integer(4));
}

TEST(CxxPrototype, CxxMethodsTakeThisAndEveryStructorSymbolIsThere) {
  // std::ios_base::~ios_base(), base-object (D2) and complete-object (D1) destructors:
  // `this` only, no result.
  for (const char *name : {"_ZNSt8ios_baseD2Ev", "_ZNSt8ios_baseD1Ev"}) {
    const LibraryPrototype &destructor = prototype(name);
    EXPECT_EQ(destructor.result.abiClass, AbiClass::Void) << name;
    ASSERT_EQ(destructor.parameters().size(), 1u) << name;
    EXPECT_EQ(destructor.parameters()[0], pointer(false)) << name;
  }
  // std::_Rb_tree_decrement(std::_Rb_tree_node_base*): a free function, no `this`.
  EXPECT_EQ(prototype("_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base").parameters().size(),
            1u);
}

TEST(CxxPrototype, StringMembersOfTheExplicitInstantiation) {
  // char *_M_create(size_type &capacity, size_type old_capacity): `this`, then a reference.
  EXPECT_EQ(parametersOf(STRING "9_M_createERmm"),
            (std::vector<AbiType>{pointer(false), pointer(false), integer(8)}));
  EXPECT_EQ(prototype(STRING "9_M_createERmm").result, pointer(false));
  // basic_string &_M_replace(size_type, size_type, const char *, size_type).
  EXPECT_EQ(parametersOf(STRING "10_M_replaceEmmPKcm"),
            (std::vector<AbiType>{pointer(false), integer(8), integer(8), pointer(true),
                                  integer(8)}));
  EXPECT_EQ(parametersOf(STRING "9_M_appendEPKcm"),
            (std::vector<AbiType>{pointer(false), pointer(true), integer(8)}));
  // size_type find(const char *, size_type, size_type) const noexcept.
  const LibraryPrototype &find = prototype(CONST_STRING "4findEPKcmm");
  EXPECT_EQ(find.result, integer(8));
  EXPECT_TRUE(find.isNoThrow());
  EXPECT_EQ(find.parameters().size(), 4u);
  // int compare(const char *) const; the wchar_t instantiation too.
  EXPECT_EQ(prototype(CONST_STRING "7compareEPKc").result, integer(4));
  EXPECT_EQ(prototype("_ZNKSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE7compareEPKw")
                .result,
            integer(4));
}

TEST(CxxPrototype, StreamInsertersAndFunctionTemplateSpecializations) {
  // std::ostream::operator<<(int) and operator<<(double): members of basic_ostream<char>.
  EXPECT_EQ(parametersOf("_ZNSolsEi"), (std::vector<AbiType>{pointer(false), integer(4)}));
  EXPECT_EQ(prototype("_ZNSolsEd").parameters()[1].abiClass, AbiClass::Double);
  // operator<<(std::ostream &, const char *), a function template's specialization: no `this`.
  const char *insertString = "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc";
  EXPECT_EQ(parametersOf(insertString), (std::vector<AbiType>{pointer(false), pointer(true)}));
  EXPECT_EQ(prototype(insertString).result, pointer(false));
  // std::ostream::sentry::sentry(std::ostream &), a nested class's constructor.
  EXPECT_EQ(parametersOf("_ZNSo6sentryC1ERSo"),
            (std::vector<AbiType>{pointer(false), pointer(false)}));
}

TEST(CxxPrototype, ClassesNotTrivialForCallsComeBackThroughAHiddenPointer) {
  // std::string substr(size_type, size_type) const: 32 bytes through the pointer in rdi.
  EXPECT_EQ(prototype(CONST_STRING "6substrEmm").result, inMemory(32));
  // std::locale is 8 bytes, but its copy constructor is not trivial: memory all the same.
  const LibraryPrototype &global = prototype("_ZNSt6locale6globalERKS_");
  EXPECT_EQ(global.result, inMemory(8));
  EXPECT_EQ(global.parameters().size(), 1u); // static: no `this`
  // std::operator+(const char *, const std::string &).
  EXPECT_EQ(prototype("_ZStplIcSt11char_traitsIcESaIcEENSt7__cxx1112basic_stringIT_T0_T1_EEP"
                      "KS5_RKS8_")
                .result,
            inMemory(32));
}

TEST(CxxPrototype, ClassesTrivialForCallsTravelInRegisters) {
  // iterator end(): a __normal_iterator, one pointer, trivially copied (though not trivial:
  // it has a user-provided default constructor).
  EXPECT_EQ(prototype(STRING "3endEv").result, inIntegerRegisters(8));
  // std::streampos seekoff(off_type, seekdir, openmode): fpos<mbstate_t> is 16 bytes.
  EXPECT_EQ(prototype("_ZNSt13basic_filebufIcSt11char_traitsIcEE7seekoffElSt12_Ios_Seekdir"
                      "St13_Ios_Openmode")
                .result,
            inIntegerRegisters(16));
  // std::pair has its own assignment operators, so it is not trivially copyable, but it is
  // trivial for calls: path::_M_find_extension() returns its pair in rax and rdx.
  EXPECT_EQ(prototype("_ZNKSt10filesystem7__cxx114path17_M_find_extensionEv").result,
            inIntegerRegisters(16));
}

TEST(CxxPrototype, BaseObjectStructorsOfAClassWithAVirtualBaseTakeTheVtt) {
  // std::ostream derives virtually from std::basic_ios<char>: its base-object constructor
  // and destructor (C2, D2) take the VTT after `this`, the complete-object ones (C1, D1)
  // and the deleting destructor (D0) do not.
  const AbiType vtt = pointer(true);
  EXPECT_EQ(parametersOf("_ZNSoC2EPSt15basic_streambufIcSt11char_traitsIcEE"),
            (std::vector<AbiType>{pointer(false), vtt, pointer(false)}));
  EXPECT_EQ(parametersOf("_ZNSoC1EPSt15basic_streambufIcSt11char_traitsIcEE"),
            (std::vector<AbiType>{pointer(false), pointer(false)}));
  EXPECT_EQ(parametersOf("_ZNSoD2Ev"), (std::vector<AbiType>{pointer(false), vtt}));
  EXPECT_EQ(parametersOf("_ZNSoD1Ev"), (std::vector<AbiType>{pointer(false)}));
  EXPECT_EQ(parametersOf("_ZNSoD0Ev"), (std::vector<AbiType>{pointer(false)}));
  // std::ios_base has no virtual base: D2 takes `this` only.
  EXPECT_EQ(parametersOf("_ZNSt8ios_baseD2Ev"), (std::vector<AbiType>{pointer(false)}));
}

TEST(CxxPrototype, OnlyExportedSymbolsAndNoHeaderStatics) {
  // std::string_view::size(): libstdc++ instantiates no basic_string_view, so every program
  // has its own copy and none imports it.
  EXPECT_EQ(findLibraryPrototype("_ZNKSt17basic_string_viewIcSt11char_traitsIcEE4sizeEv"),
            nullptr);
  // glibc's static __bswap_32 is every program's own: C++ mangles it as internal (_ZL).
  EXPECT_EQ(findLibraryPrototype("_ZL10__bswap_32j"), nullptr);
}

TEST(CxxPrototype, JsoncppWhenItsHeadersAreInstalled) {
  // CxxLibraryHeaders.h includes jsoncpp's headers under __has_include, and libjsoncpp.so.25's
  // exports get entries as libstdc++'s do.
  const LibraryPrototype *destructor = findLibraryPrototype("_ZN4Json5ValueD1Ev");
  if (!destructor)
    GTEST_SKIP() << "libjsoncpp-dev is not installed";
  EXPECT_EQ(destructor->parameters().size(), 1u);
  // std::string Json::Value::asString() const: through a hidden pointer, then `this`.
  EXPECT_EQ(prototype("_ZNK4Json5Value8asStringB5cxx11Ev").result, inMemory(32));
  // Json::Value &Json::Value::operator[](const char *).
  EXPECT_EQ(parametersOf("_ZN4Json5ValueixEPKc"),
            (std::vector<AbiType>{pointer(false), pointer(true)}));
}
