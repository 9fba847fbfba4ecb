/* The C++ library's headers, parsed in C++ mode for the table's C++ half (cxx_prototypes.py,
   and cxx_instantiations.py for the exports of the libraries it lists): the whole of
   libstdc++ through its precompile header, the C++ runtime's ABI, and jsoncpp's when its -dev
   package is installed. */
#include <bits/stdc++.h>
#include <cxxabi.h>
#if __has_include(<jsoncpp/json/json.h>)
#include <jsoncpp/json/json.h>
#endif
