/* The C++ library's headers, parsed in C++ mode for the table's C++ half (cxx_prototypes.py):
   the whole of libstdc++ through its precompile header, and the C++ runtime's ABI. */
#include <bits/stdc++.h>
#include <cxxabi.h>
