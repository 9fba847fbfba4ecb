// String and memory functions: the library code a signature test should find.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

void *copy_bytes(void *to, const void *from, size_t count);

static int compare(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int text_demo(int argc, char **argv) {
  char buffer[256], copy[256];
  snprintf(buffer, sizeof buffer, "%s-%d-%x-%5.2f", argc > 1 ? argv[1] : "none", argc, argc * 17, argc / 3.0);
  copy_bytes(copy, buffer, strlen(buffer) + 1);
  memmove(copy + 1, copy, 10);
  memset(copy + 20, 'x', 5);
  int sum = memcmp(buffer, copy, 4) + (int)strnlen(copy, 100);
  char *token, *save = NULL;
  for (token = strtok_r(copy, "-", &save); token; token = strtok_r(NULL, "-", &save))
    sum += (int)strtol(token, NULL, 16) + (int)strspn(token, "0123456789") + (int)strcspn(token, "x");
  sum += strchr(buffer, '-') - buffer + (strrchr(buffer, '-') - buffer);
  sum += strstr(buffer, "none") != NULL;
  sum += strncmp(buffer, "none", 4) + strcasecmp(buffer, "NONE") + strncasecmp(buffer, "No", 2);
  char *dup = strdup(buffer);
  strcat(dup = realloc(dup, 512), "tail");
  strncpy(copy, dup, 10);
  stpcpy(copy + 10, "end");
  for (char *p = dup; *p; ++p)
    *p = toupper((unsigned char)*p);
  sum += isalpha(dup[0]) + isdigit(dup[1]) + isspace(dup[2]) + tolower(dup[3]);
  const char *words[] = {"pear", "apple", "fig", "kiwi"};
  qsort(words, 4, sizeof words[0], compare);
  const char *key = "fig";
  sum += bsearch(&key, words, 4, sizeof words[0], compare) != NULL;
  wchar_t wide[32];
  sum += (int)mbstowcs(wide, "wide", 32) + (int)wcslen(wide);
  sum += (int)strtoul("123", NULL, 10) + atoi("42") + (int)atol("7") + (int)strtod("1.5", NULL);
  char *found = memchr(buffer, '-', sizeof buffer);
  sum += found ? (int)(found - buffer) : 0;
  free(dup);
  return sum;
}

// The program's own function that only calls memcpy: it must not be taken for memcpy.
void *copy_bytes(void *to, const void *from, size_t count) { return memcpy(to, from, count); }
