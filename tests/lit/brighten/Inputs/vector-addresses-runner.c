#include <stdio.h>
struct codes {
  const int *len;
  const int *dist;
};
void fixed_codes(struct codes *codes);
int sum_codes(const struct codes *codes, int n);
int main(void) {
  struct codes codes = {0, 0};
  fixed_codes(&codes);
  printf("%d %d %d %d\n", codes.len[0], codes.len[3], codes.dist[0], codes.dist[3]);
  printf("%d\n", sum_codes(&codes, 9));
  return 0;
}
