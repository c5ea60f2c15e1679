/* --inline test: the program that uses libinline_lib.so. */
unsigned long lib_work(unsigned long n);

int main(void)
{
    return lib_work(1000) == 42;
}
