/* COPY-relocated variables (`stdout`, `optind`, `environ`, ...): in the original process the
 * program holds the only live copy, and ld.so binds every library's references to it. The
 * translated program is a different executable, so ld.so bound the libraries to their own
 * definitions. Once the program's copy is initialized from the library's object, every pointer
 * slot that a library's dynamic relocation filled with an address inside that object is
 * rewritten to the same offset in the program's copy: one object again, as ld.so would have
 * made it, and nothing to synchronize when control crosses between lifted and native code.
 * Libraries loaded later by dlopen still bind to the library's own object (docs/TRANSLATE.md). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Runtime.h"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>

enum { MaxCopies = 256 };

static struct {
  uint64_t program;   /* the program's copy, at its original address */
  uint64_t library;   /* the library's object the program's copy was initialized from */
  uint64_t size;
} copies[MaxCopies];
static uint64_t copyCount;
static uint64_t redirectedSlots;

void hoist_add_copy(uint64_t program, uint64_t library, uint64_t size) {
  if (copyCount == MaxCopies)
    hoist_fatal("%s: more than %d COPY relocations", hoist_program.path, MaxCopies);
  copies[copyCount].program = program;
  copies[copyCount].library = library;
  copies[copyCount].size = size;
  ++copyCount;
}

/* The program's address for a value inside a library's copied object, or 0. */
static uint64_t programAddress(uint64_t value) {
  for (uint64_t i = 0; i < copyCount; ++i)
    if (value - copies[i].library < copies[i].size)
      return copies[i].program + (value - copies[i].library);
  return 0;
}

/* d_ptr values are addresses once ld.so adjusted them (x86-64 does, in place); an object that
 * was not adjusted (the vDSO) still has offsets from its base. */
static uint64_t dynamicPointer(const struct dl_phdr_info *info, uint64_t pointer) {
  return pointer < info->dlpi_addr ? pointer + info->dlpi_addr : pointer;
}

static uint64_t pageOf(uint64_t address) { return address & ~(uint64_t)4095; }

static int redirectObject(struct dl_phdr_info *info, size_t size, void *unused) {
  (void)size, (void)unused;
  const ElfW(Dyn) *dynamic = 0;
  uint64_t relroStart = 0, relroEnd = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *header = &info->dlpi_phdr[i];
    if (header->p_type == PT_DYNAMIC)
      dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr);
    else if (header->p_type == PT_GNU_RELRO) {
      relroStart = pageOf(info->dlpi_addr + header->p_vaddr);
      relroEnd = pageOf(info->dlpi_addr + header->p_vaddr + header->p_memsz);
    }
  }
  if (!dynamic)
    return 0;
  uint64_t rela = 0, relaSize = 0;
  for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; ++entry) {
    if (entry->d_tag == DT_RELA)
      rela = dynamicPointer(info, entry->d_un.d_ptr);
    else if (entry->d_tag == DT_RELASZ)
      relaSize = entry->d_un.d_val;
  }
  const ElfW(Rela) *relocations = (const ElfW(Rela) *)rela;
  for (uint64_t i = 0; rela && i < relaSize / sizeof(ElfW(Rela)); ++i) {
    uint64_t type = ELF64_R_TYPE(relocations[i].r_info);
    if (type != R_X86_64_GLOB_DAT && type != R_X86_64_64)
      continue;
    uint64_t *slot = (uint64_t *)(info->dlpi_addr + relocations[i].r_offset);
    uint64_t target = programAddress(*slot);
    if (!target)
      continue;
    /* Read-only after relocation (RELRO): writable for the one store. */
    uint64_t page = pageOf((uint64_t)slot);
    int protectedPage = page >= relroStart && page < relroEnd;
    if (protectedPage && mprotect((void *)page, 4096, PROT_READ | PROT_WRITE) != 0)
      hoist_fatal("%s: cannot make a library's relocated slot at %p writable",
                  hoist_program.path, (void *)slot);
    *slot = target;
    if (protectedPage)
      mprotect((void *)page, 4096, PROT_READ);
    ++redirectedSlots;
  }
  return 0;
}

void hoist_redirect_copies(void) {
  if (copyCount)
    dl_iterate_phdr(redirectObject, 0);
}
