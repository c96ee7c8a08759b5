# Toolchain for scripts/check-portability.sh: configures StreamScope as a Windows build with
# Debian's mingw-w64 (posix threads), so that CMake itself picks the sources a Windows build
# compiles and AUTOMOC runs with the Windows target's predefined macros. Nothing is built or
# linked with it; the script only runs moc and compiles with -fsyntax-only.
#
# There is no Qt for Windows here: find_package() finds the Linux Qt, whose headers are the
# same for every platform apart from qconfig.h's feature list; the Windows branches come from
# the compiler's own _WIN32 and friends, which qsystemdetection.h turns into Q_OS_WIN.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)

# Look for packages on this (Linux) system, not in a mingw sysroot.
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY NEVER)
list(APPEND CMAKE_PREFIX_PATH /usr/lib/x86_64-linux-gnu/cmake)
# Qt's config asks for the host tools' prefix when cross-compiling: moc is the Linux one.
set(QT_HOST_PATH /usr)
set(CMAKE_PROJECT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/linux-qt-as-windows.cmake)
