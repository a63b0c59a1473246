import { phrases, type KeywordSet } from "./types.js";

export const pl: KeywordSet = {
  lang: "pl",
  name: "Polish",
  match: "words",
  patterns: phrases(`
    jak działa | jak działają | gdzie jest | gdzie są | gdzie się | gdzie znajduje* | w którym pliku | który plik | która funkcja
    która klasa | która metoda | który moduł | kto wywołuje | co wywołuje | wywoływan* | wywołan* | kto używa | używan* przez
    przepływ | cykl życia | punkt wejścia | co się dzieje | co się stanie | wpływ | zależy od | zależą od | architektur* | struktur*
    zdefiniowan* | zaimplementowan* | implementacj* | relacj* między
  `),
};
