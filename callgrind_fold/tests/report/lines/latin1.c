/* Latin-1, not UTF-8: café */
int g(void)
{
    return 0; /* naïve ÿþ */
}
