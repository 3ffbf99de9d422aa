/// English singular and plural forms of resource names, as json-server's `pluralize` dependency gives them for
/// the names APIs use: `posts` ↔ `post`, `categories` ↔ `category`, `addresses` ↔ `address`,
/// `people` ↔ `person`.
///
/// It is used to find foreign keys (`/posts` embeds `comments` by `postId`) and parents (`_expand=user` reads
/// `users`). A small rule set, not the whole library: irregular nouns, a few uncountables, and the regular
/// `-s`, `-es`, `-ies` endings. Case is kept as written.
enum Pluralizer {
    private static let irregular: [(singular: String, plural: String)] = [
        ("person", "people"), ("man", "men"), ("woman", "women"), ("child", "children"), ("tooth", "teeth"),
        ("foot", "feet"), ("mouse", "mice"), ("goose", "geese"), ("ox", "oxen"), ("movie", "movies"),
        ("shoe", "shoes"), ("quiz", "quizzes"),
    ]

    private static let uncountable: Set<String> = [
        "sheep", "fish", "deer", "series", "species", "news", "information", "equipment", "rice", "money",
        "media", "data", "feedback", "software", "metadata",
    ]

    private static let vowels: Set<Character> = ["a", "e", "i", "o", "u"]

    /// The plural of `word`; a word that already reads as plural is returned unchanged.
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if word.isEmpty || uncountable.contains(lower) { return word }
        if let pair = irregular.first(where: { $0.singular == lower }) { return keepingCase(word, pair.plural) }
        if irregular.contains(where: { $0.plural == lower }) { return word }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("x") || lower.hasSuffix("z")
            || lower.hasSuffix("ch") || lower.hasSuffix("sh")
        {
            return word + "es"
        }
        if lower.hasSuffix("s") { return word }
        if lower.hasSuffix("y"), lower.count > 1, !vowels.contains(lower.dropLast().last!) {
            return word.dropLast() + "ies"
        }
        return word + "s"
    }

    /// The singular of `word`; a word that already reads as singular is returned unchanged.
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if word.isEmpty || uncountable.contains(lower) { return word }
        if let pair = irregular.first(where: { $0.plural == lower }) { return keepingCase(word, pair.singular) }
        if irregular.contains(where: { $0.singular == lower }) { return word }
        if lower.hasSuffix("ies"), lower.count > 4 { return word.dropLast(3) + "y" }
        for ending in ["sses", "uses", "xes", "zes", "ches", "shes"] where lower.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") { return word }
        if lower.hasSuffix("s") { return String(word.dropLast()) }
        return word
    }

    private static func keepingCase(_ original: String, _ replacement: String) -> String {
        guard let first = original.first, first.isUppercase else { return replacement }
        return replacement.prefix(1).uppercased() + replacement.dropFirst()
    }
}
