# Warnings and sanitizers for StreamScope's own targets (never for third-party code).
function(streamscope_target_defaults target)
    if(MSVC)
        target_compile_options(${target} PRIVATE /W4 /permissive-)
        if(STREAMSCOPE_WERROR)
            target_compile_options(${target} PRIVATE /WX)
        endif()
    else()
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                                 -Wnon-virtual-dtor -Wcast-align)
        if(STREAMSCOPE_WERROR)
            target_compile_options(${target} PRIVATE -Werror)
        endif()
    endif()
    target_compile_definitions(${target} PRIVATE
        QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
        QT_NO_NARROWING_CONVERSIONS_IN_CONNECT QT_STRICT_ITERATORS
        STREAMSCOPE_VERSION="${PROJECT_VERSION}")
endfunction()

if(STREAMSCOPE_SANITIZE)
    string(REPLACE ";" "," _san "${STREAMSCOPE_SANITIZE}")
    add_compile_options(-fsanitize=${_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${_san})
endif()
