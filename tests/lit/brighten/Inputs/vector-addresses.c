/* Two addresses stored side by side: gcc -O2 packs them into one XMM register
   (`lea lens(%rip), %rax; lea dists(%rip), %rdx; movq %rax, %xmm0; movq %rdx, %xmm1;
   punpcklqdq %xmm1, %xmm0; movups %xmm0, (%rdi)`, as zlib's inflate sets its fixed code
   tables), which the lifter folds into one vector constant of the two addresses. */
static const int lens[4] = {1, 2, 3, 4};
static const int dists[4] = {50, 60, 70, 80};
struct codes {
  const int *len;
  const int *dist;
};

__attribute__((noinline)) void fixed_codes(struct codes *codes) {
  codes->len = lens;
  codes->dist = dists;
}

__attribute__((noinline)) int sum_codes(const struct codes *codes, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += codes->len[i & 3] * codes->dist[(i + 1) & 3];
  return sum;
}

#ifndef NO_MAIN
int main(void) {
  struct codes codes;
  fixed_codes(&codes);
  return sum_codes(&codes, 5) & 0x7f;
}
#endif
