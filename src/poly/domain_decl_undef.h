/* Undoes the macros of domain_decl.h. */
#undef DD_
#undef DD_FE_T
#undef DD_MAX_LOG
