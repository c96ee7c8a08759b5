#pragma once

// The tests of one folder are one executable (tests/CMakeLists.txt, streamscope_add_test), run
// as `streamscope_tests_<folder> <test> [QtTest arguments]`. Each test source ends with one of
// the macros below where it had Qt's QTEST_MAIN / QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN: it
// registers, under the source file's name without its extension (tst_backoff), a function that
// does what Qt's macro does in main() (Qt 6.4's qtest.h): the class's initMain(), the
// application object (QApplication when the executable links Qt Widgets, QGuiApplication when
// it links Qt Gui, QCoreApplication otherwise; QCoreApplication for the GUI-less one; none for
// the application-less one) with Qt::AA_Use96Dpi, the test object, the source path QFINDTESTDATA
// looks beside, and QTest::qExec with the arguments after the test's name. The executable's
// main (TestMain.cpp) runs one test per process.
//
// Registration runs from static initializers, before main, on the main thread.

#include <QtTest/QTest>

namespace streamscope::testing {

using TestMainFunction = int (*)(int argc, char *argv[]);

// Registers `main` under the stem of `sourceFile` (__FILE__ of the test's source). Returns true,
// for the static it initializes.
bool registerTest(const char *sourceFile, TestMainFunction main);

// The executable's main: argv[1] names the test; it runs with argv[1] as its argv[0] and the
// arguments after it. With no name or an unknown one, prints the names and returns 2.
int runRegisteredTest(int argc, char *argv[]);

} // namespace streamscope::testing

// The body of Qt's QTEST_MAIN_WRAPPER, as a function registered under the source's name.
#define STREAMSCOPE_TEST_REGISTER(TestObject, ...)                                                                     \
    static int streamscopeTestMain_##TestObject(int argc, char *argv[])                                                \
    {                                                                                                                  \
        TESTLIB_SELFCOVERAGE_START(#TestObject)                                                                        \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                             \
        __VA_ARGS__                                                                                                    \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&tc, argc, argv);                                                                          \
    }                                                                                                                  \
    [[maybe_unused]] static const bool streamscopeTestRegistered_##TestObject =                                        \
        streamscope::testing::registerTest(__FILE__, &streamscopeTestMain_##TestObject);

// QTEST_MAIN: the application object the executable's Qt modules call for.
#define STREAMSCOPE_TEST_MAIN(TestObject) STREAMSCOPE_TEST_REGISTER(TestObject, QTEST_MAIN_SETUP())

// QTEST_GUILESS_MAIN: a QCoreApplication.
#define STREAMSCOPE_TEST_GUILESS_MAIN(TestObject)                                                                      \
    STREAMSCOPE_TEST_REGISTER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))

// QTEST_APPLESS_MAIN: no application object.
#define STREAMSCOPE_TEST_APPLESS_MAIN(TestObject) STREAMSCOPE_TEST_REGISTER(TestObject)
