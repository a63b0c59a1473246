/** C and C++ headers: where prototypes and class declarations live. */
export const HEADER_PATH = /\.(h|hh|hpp|hxx|h\+\+|inl|ipp|tpp)$/i;

export const isHeaderPath = (path: string): boolean => HEADER_PATH.test(path);

/** C and C++ files, headers and sources. */
export const C_FAMILY_PATH = /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|h\+\+|inl|ipp|tpp)$/i;
