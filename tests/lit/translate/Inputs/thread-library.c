/* A library's thread-local variable, which the program reaches by initial-exec accesses. */
__thread int libraryCounter = 5;
void setLibraryCounter(int value) { libraryCounter = value; }
int libraryCounterValue(void) { return libraryCounter; }
