/* A second unit for the --inline tests' mixed build: compiled by gcc,
 * which describes it in .debug_aranges (see inline_tests.py). */
int other_unit_scale(int x);

int other_unit_scale(int x)
{
    return 3 * x;
}
