/* See pe-loader.h. Layout from the Microsoft PE/COFF specification: the optional header of
 * PE32+, section table, import directory (index 1) and base relocations (index 5). */
#define _GNU_SOURCE
#include "pe-loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static uint16_t u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t u32(const uint8_t *p) { return (uint32_t)u16(p) | (uint32_t)u16(p + 2) << 16; }
static uint64_t u64(const uint8_t *p) { return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32; }

static int fail(const char *path, const char *why) {
  fprintf(stderr, "%s: %s\n", path, why);
  return -1;
}

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t *bytes = length > 0 ? malloc((size_t)length) : NULL;
  if (bytes && fread(bytes, 1, (size_t)length, file) != (size_t)length) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *size = (size_t)length;
  return bytes;
}

/* Adds `delta` to every 64-bit address the relocation directory lists. */
static void relocate(uint8_t *base, uint32_t rva, uint32_t size, uint64_t delta) {
  for (uint32_t offset = 0; offset + 8 <= size;) {
    uint8_t *block = base + rva + offset;
    uint32_t page = u32(block), length = u32(block + 4);
    if (length < 8)
      break;
    for (uint32_t entry = 8; entry + 2 <= length; entry += 2) {
      uint16_t value = u16(block + entry);
      if (value >> 12 == 10) { /* IMAGE_REL_BASED_DIR64 */
        uint8_t *at = base + page + (value & 0xfff);
        uint64_t address = u64(at) + delta;
        memcpy(at, &address, sizeof address);
      }
    }
    offset += length;
  }
}

static void *lookup(const struct pe_binding *bindings, const char *name, void *unbound) {
  for (; bindings->name; bindings++)
    if (strcmp(bindings->name, name) == 0)
      return bindings->function;
  return unbound;
}

/* Writes each import's function into its slot of the import address table. */
static void bind_imports(uint8_t *base, uint32_t rva, const struct pe_binding *bindings,
                         void *unbound) {
  for (uint8_t *descriptor = base + rva; u32(descriptor + 12) != 0; descriptor += 20) {
    uint32_t names = u32(descriptor) ? u32(descriptor) : u32(descriptor + 16);
    uint8_t *slots = base + u32(descriptor + 16);
    for (uint32_t i = 0;; i++) {
      uint64_t thunk = u64(base + names + 8 * i);
      if (thunk == 0)
        break;
      void *function = thunk >> 63 ? unbound
                                   : lookup(bindings, (const char *)base + (uint32_t)thunk + 2,
                                            unbound);
      memcpy(slots + 8 * i, &function, sizeof function);
    }
  }
}

int pe_load(const char *path, const struct pe_binding *bindings, void *unbound,
            struct pe_image *image) {
  size_t size = 0;
  uint8_t *file = read_file(path, &size);
  if (!file)
    return fail(path, "cannot read");
  uint32_t pe = size > 0x40 ? u32(file + 0x3c) : 0;
  if (size < (size_t)pe + 24 + 112 || memcmp(file + pe, "PE\0\0", 4) != 0)
    return fail(path, "not a PE file");
  const uint8_t *coff = file + pe + 4, *optional = coff + 20;
  if (u16(coff) != 0x8664 || u16(optional) != 0x20b)
    return fail(path, "not an x86-64 PE32+ image");
  uint16_t sections = u16(coff + 2), optionalSize = u16(coff + 16);
  uint64_t preferred = u64(optional + 24);
  uint32_t imageSize = u32(optional + 56), headersSize = u32(optional + 60);
  uint32_t directories = u32(optional + 108);
  const uint8_t *directory = optional + 112;

  uint8_t *base = mmap((void *)preferred, imageSize, PROT_READ | PROT_WRITE | PROT_EXEC,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (base == MAP_FAILED)
    base = mmap(NULL, imageSize, PROT_READ | PROT_WRITE | PROT_EXEC,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    return fail(path, "cannot map the image");
  memcpy(base, file, headersSize < size ? headersSize : size);
  const uint8_t *section = optional + optionalSize;
  for (uint16_t i = 0; i < sections; i++, section += 40) {
    uint32_t rva = u32(section + 12), raw = u32(section + 16), offset = u32(section + 20);
    if (raw && offset + (size_t)raw <= size && rva + (size_t)raw <= imageSize)
      memcpy(base + rva, file + offset, raw);
  }
  if ((uint64_t)base != preferred && directories > 5)
    relocate(base, u32(directory + 5 * 8), u32(directory + 5 * 8 + 4),
             (uint64_t)base - preferred);
  if (directories > 1 && u32(directory + 8))
    bind_imports(base, u32(directory + 8), bindings, unbound);
  free(file);
  image->base = base;
  image->preferred_base = preferred;
  return 0;
}

void *pe_address(const struct pe_image *image, uint64_t address) {
  return image->base + (address - image->preferred_base);
}

void *pe_symbol_address(const struct pe_image *image, const struct pe_symbol *symbols,
                        const char *name) {
  for (const struct pe_symbol *symbol = symbols; symbol->name; symbol++)
    if (strcmp(symbol->name, name) == 0)
      return pe_address(image, symbol->address);
  fprintf(stderr, "%s: not among the image's symbols\n", name);
  return NULL;
}

__attribute__((ms_abi)) void pe_unbound_import(void) {
  fprintf(stderr, "the image called an import the test does not bind\n");
  abort();
}
