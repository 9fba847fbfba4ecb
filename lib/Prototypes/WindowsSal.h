/* SAL annotations as attributes the Windows prototype generator reads back
   (generate_windows_prototypes.py). mingw-w64 ships the SAL macros (<sal.h>) but annotates
   no function with them, so which pointer arguments a function writes, and how much, is not
   in its headers. WindowsAnnotations.h and WindowsCrtAnnotations.h redeclare the functions
   whose writes Hoist's analyses rely on with the annotations the Windows SDK gives them.
   HOIST_WRITES_ONLY_OUT_PARAMETERS marks a function whose annotated out parameters are the
   only memory it writes: it keeps no pointer it is given, calls nothing back and completes
   no I/O later (no OVERLAPPED). Every pointer parameter of such a function must carry an
   annotation; the generator fails otherwise. */
#pragma once
#include <sal.h>

#undef _In_
#undef _In_opt_
#undef _Out_
#undef _Out_opt_
#undef _Inout_
#undef _Out_writes_bytes_
#undef _Out_writes_bytes_opt_
#undef _In_reads_bytes_
#undef _In_reads_
#undef _Reserved_
#undef _Out_writes_bytes_all_
#define _In_ __attribute__((annotate("hoist-in")))
#define _In_opt_ _In_
#define _In_reads_bytes_(size) _In_
#define _In_reads_(count) _In_
#define _Reserved_ _In_
#define _Out_ __attribute__((annotate("hoist-out")))
#define _Out_opt_ _Out_
#define _Inout_ _Out_
#define _Out_writes_bytes_(size) __attribute__((annotate("hoist-out-bytes:" #size)))
#define _Out_writes_bytes_opt_(size) _Out_writes_bytes_(size)
#define _Out_writes_bytes_all_(size) _Out_writes_bytes_(size)
#define HOIST_WRITES_ONLY_OUT_PARAMETERS __attribute__((annotate("hoist-writes-only-out-parameters")))

