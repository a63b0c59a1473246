import { phrases, type KeywordSet } from "./types.js";

export const fi: KeywordSet = {
  lang: "fi",
  name: "Finnish",
  match: "words",
  patterns: phrases(`
    miten | mitä tapahtuu | missä | mistä | mikä tiedosto | missä tiedostossa | mikä funktio | mikä luokka | mikä metodi
    mikä moduuli | kuka kutsuu | mikä kutsuu | kutsutaan | kutsuu | kuka käyttää | tietovirta | kulku | elinkaar*
    sisääntulokohta | vaikutus | vaikuttaa | riippuu | riippuvuu* | arkkitehtuur* | rakenne | rakenteen | määritel*
    määritetty | toteutettu | toteutus | suhde
  `),
};
