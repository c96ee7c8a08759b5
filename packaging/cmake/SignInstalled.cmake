# Install-time step (also run inside CPack's staging tree, so the installers contain the
# signed binaries). Signs only when the signing secrets are present in the environment;
# without them it does nothing, so forks and pull requests build unsigned installers.
#
#   macOS:   MACOS_SIGN_IDENTITY   "Developer ID Application: ..." in an unlocked keychain
#   Windows: WINDOWS_SIGN_PFX      path to a .pfx code-signing certificate
#            WINDOWS_SIGN_PASSWORD its password
#
# STREAMSCOPE_ENTITLEMENTS is set by packaging/CMakeLists.txt just before this script.

set(_root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")

if(CMAKE_HOST_APPLE AND NOT "$ENV{MACOS_SIGN_IDENTITY}" STREQUAL "")
    file(GLOB _bundles "${_root}/*.app")
    foreach(_bundle IN LISTS _bundles)
        message(STATUS "Signing ${_bundle} (hardened runtime)")
        # --deep signs the frameworks and plugins macdeployqt copied in; the hardened
        # runtime (--options runtime) and a secure timestamp are required for notarization.
        execute_process(COMMAND codesign --force --deep --timestamp --options runtime
                --entitlements "${STREAMSCOPE_ENTITLEMENTS}"
                --sign "$ENV{MACOS_SIGN_IDENTITY}" "${_bundle}"
            COMMAND_ERROR_IS_FATAL ANY)
        execute_process(COMMAND codesign --verify --deep --strict --verbose=2 "${_bundle}"
            COMMAND_ERROR_IS_FATAL ANY)
    endforeach()
endif()

if(CMAKE_HOST_WIN32 AND NOT "$ENV{WINDOWS_SIGN_PFX}" STREQUAL "")
    file(GLOB _kits "$ENV{ProgramFiles\(x86\)}/Windows Kits/10/bin/*/x64")
    list(SORT _kits ORDER DESCENDING)
    find_program(_signtool signtool HINTS ${_kits})
    if(NOT _signtool)
        message(FATAL_ERROR "WINDOWS_SIGN_PFX is set but signtool.exe was not found")
    endif()
    file(GLOB _exes "${_root}/bin/*.exe")
    foreach(_exe IN LISTS _exes)
        message(STATUS "Signing ${_exe}")
        execute_process(COMMAND "${_signtool}" sign /fd SHA256 /td SHA256
                /tr http://timestamp.digicert.com
                /f "$ENV{WINDOWS_SIGN_PFX}" /p "$ENV{WINDOWS_SIGN_PASSWORD}" "${_exe}"
            COMMAND_ERROR_IS_FATAL ANY)
    endforeach()
endif()
