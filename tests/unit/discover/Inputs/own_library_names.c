/* A program that defines its own functions named like glibc's never-returning ones, and
   they return. Built with -fno-builtin, so that the compiler too treats them as ordinary. */
int puts(const char *text);

__attribute__((noinline)) void exit(int status) { puts(status ? "exit 1" : "exit 0"); }
__attribute__((noinline)) void error(int status, int errnum, const char *format) {
  puts(format);
  (void)status, (void)errnum;
}
__attribute__((noinline)) void after_exit(void) { puts("after exit"); }
__attribute__((noinline)) void after_error(void) { puts("after error"); }

int main(void) {
  exit(1);
  after_exit();
  error(1, 0, "error");
  after_error();
  return 0;
}
