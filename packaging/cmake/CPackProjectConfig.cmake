# Per-generator CPack settings (CPACK_PROJECT_CONFIG_FILE): read by cpack once for each
# generator, with CPACK_GENERATOR set to the one running.

# Archives unpack into one folder named after the package; a .deb must not have one.
if(CPACK_GENERATOR MATCHES "^(TGZ|TXZ|ZIP)$")
    set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY ON)
else()
    set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY OFF)
endif()
