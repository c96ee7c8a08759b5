#include "TestRegistry.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace streamscope::testing {

namespace {

struct RegisteredTest {
    std::string name;
    TestMainFunction main = nullptr;
};

// A function's static: registration runs from other files' static initializers, in an order
// the language leaves open.
std::vector<RegisteredTest> &registeredTests()
{
    static std::vector<RegisteredTest> tests;
    return tests;
}

// "…/tests/engine/tst_backoff.cpp" (either separator) → "tst_backoff".
std::string sourceStem(const char *sourceFile)
{
    std::string path(sourceFile);
    const std::size_t slash = path.find_last_of("/\\");
    if (slash != std::string::npos)
        path.erase(0, slash + 1);
    const std::size_t dot = path.find('.');
    if (dot != std::string::npos)
        path.erase(dot);
    return path;
}

int printTestNames(const char *program)
{
    std::vector<std::string> names;
    for (const RegisteredTest &test : registeredTests())
        names.push_back(test.name);
    std::sort(names.begin(), names.end());
    std::fprintf(stderr, "Usage: %s TEST [QtTest arguments]\nTests:\n", program);
    for (const std::string &name : names)
        std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
}

} // namespace

bool registerTest(const char *sourceFile, TestMainFunction main)
{
    registeredTests().push_back({sourceStem(sourceFile), main});
    return true;
}

int runRegisteredTest(int argc, char *argv[])
{
    const char *program = argc > 0 && argv[0] ? argv[0] : "streamscope_tests";
    if (argc < 2)
        return printTestNames(program);
    TestMainFunction found = nullptr;
    int matches = 0;
    for (const RegisteredTest &test : registeredTests()) {
        if (test.name == argv[1]) {
            found = test.main;
            ++matches;
        }
    }
    if (matches != 1) {
        if (matches > 1)
            std::fprintf(stderr, "%d tests are registered as %s\n", matches, argv[1]);
        return printTestNames(program);
    }
    // The test's name takes the program's place: QCoreApplication's applicationName (and with
    // it QStandardPaths' test-mode folders) is the test's as when it was its own executable.
    return found(argc - 1, argv + 1);
}

} // namespace streamscope::testing
