# The allocator linked into Hoist's executables (hoist, hoist-opt, hoist-bench), never into its
# libraries: a library user keeps the allocator of their own program.
#
# LLVM allocates every IR instruction, use list and pass result with operator new. glibc's
# malloc serves a lifted function's IR from the top of a heap that only grows (its _int_malloc
# slow path was 17% of the raw lift) and gives each thread an arena of its own that shares
# memory with the others; mimalloc serves small objects from per-thread pages of one size
# class. docs/PERFORMANCE.md ("Sixth pass") has the measurements of all three candidates.
#
# Sanitizer and fuzzing builds keep glibc's malloc: ASan replaces malloc itself and reports
# memory errors only for the blocks it allocates.
set(HOIST_ALLOCATOR "mimalloc" CACHE STRING
    "malloc of the executables: mimalloc, jemalloc, tcmalloc or system (glibc)")
set_property(CACHE HOIST_ALLOCATOR PROPERTY STRINGS mimalloc jemalloc tcmalloc system)

set(hoist_allocator_library "")
if(HOIST_SANITIZE OR HOIST_FUZZ)
  message(STATUS "Allocator: glibc malloc (sanitizer and fuzzing builds bring their own)")
elseif(HOIST_ALLOCATOR STREQUAL "mimalloc")
  find_package(mimalloc 2.0 CONFIG QUIET)
  if(TARGET mimalloc)
    set(hoist_allocator_library mimalloc)
  endif()
elseif(HOIST_ALLOCATOR STREQUAL "jemalloc")
  find_library(HOIST_JEMALLOC_LIBRARY NAMES jemalloc)
  if(HOIST_JEMALLOC_LIBRARY)
    set(hoist_allocator_library ${HOIST_JEMALLOC_LIBRARY})
  endif()
elseif(HOIST_ALLOCATOR STREQUAL "tcmalloc")
  # The minimal variant: the allocator without the heap profiler and checker.
  find_library(HOIST_TCMALLOC_LIBRARY NAMES tcmalloc_minimal)
  if(HOIST_TCMALLOC_LIBRARY)
    set(hoist_allocator_library ${HOIST_TCMALLOC_LIBRARY})
  endif()
elseif(NOT HOIST_ALLOCATOR STREQUAL "system")
  message(FATAL_ERROR "HOIST_ALLOCATOR=${HOIST_ALLOCATOR}: use mimalloc, jemalloc, tcmalloc or system")
endif()
if(hoist_allocator_library)
  message(STATUS "Allocator: ${HOIST_ALLOCATOR}")
elseif(HOIST_ALLOCATOR STREQUAL "system" AND NOT HOIST_SANITIZE AND NOT HOIST_FUZZ)
  message(STATUS "Allocator: glibc malloc (HOIST_ALLOCATOR=system)")
elseif(NOT HOIST_SANITIZE AND NOT HOIST_FUZZ)
  message(STATUS "Allocator: ${HOIST_ALLOCATOR} not found, using glibc malloc "
                 "(scripts/install-deps.sh installs it; -DHOIST_ALLOCATOR=system silences this)")
endif()

# Links the chosen allocator into an executable. It must come before libc in the executable's
# list of needed libraries, where the dynamic linker looks for malloc and operator new first,
# for libLLVM's calls as well as Hoist's: a shared library named on the link line always does.
function(hoist_link_allocator target)
  if(hoist_allocator_library)
    target_link_libraries(${target} PRIVATE ${hoist_allocator_library})
  endif()
endfunction()
