# A shared library that defines puts, for Inputs/indirect-jumps.s to import.
.text
.globl puts
.type puts,@function
puts: ret
