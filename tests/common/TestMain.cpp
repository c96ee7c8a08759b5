// The main of every test-folder executable (streamscope_tests_<folder>): runs the one test its
// first argument names (TestRegistry.h).

#include "TestRegistry.h"

int main(int argc, char *argv[])
{
    return streamscope::testing::runRegisteredTest(argc, argv);
}
