// The one source of the targets that build the precompiled headers
// (cmake/StreamScopePrecompiledHeaders.cmake); it holds nothing of its own.
