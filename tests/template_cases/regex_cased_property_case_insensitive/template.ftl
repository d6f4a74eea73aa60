${"É"?matches("\\p{Ll}", "i")?c} ${"ǅ"?matches("\\p{Lu}","i")?c} ${"a"?matches("\\p{Lt}","i")?c} ${"ª"?matches("\\p{Lu}","i")?c}
${"É"?matches("\\p{javaLowerCase}", "i")?c} ${"ª"?matches("\\p{javaUpperCase}","i")?c} ${"Ⅰ"?matches("\\p{javaLowerCase}","i")?c} ${"ǅ"?matches("\\p{javaLowerCase}","i")?c} ${"ǅ"?matches("\\p{javaLowerCase}")?c}
${"A"?matches("\\p{Upper}","i")?c} ${"a"?matches("\\p{Upper}","i")?c} ${"é"?matches("\\p{Lower}","i")?c}
${"É"?matches("\\p{IsLowercase}", "i")?c} ${"ǅ"?matches("\\p{IsUppercase}", "i")?c}
${"A"?matches("[^\\p{Lower}]","i")?c} ${"A"?matches("\\P{Lower}","i")?c} ${"A"?matches("\\P{Ll}","i")?c}
