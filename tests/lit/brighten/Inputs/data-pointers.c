/* Pointers the linker writes into data, for an image with base relocations (PE) and one
   without any relocation (a non-PIE ELF executable). */
const char *greeting = "hello";
static const char *const names[] = {"zero", "one", "two"};
int counter = 5;
const char *current_greeting(void) { return greeting; }
const char *name_of(unsigned index) { return index < 3 ? names[index] : "many"; }
int bump(void) { return ++counter; }
int main(void) { return 0; }
