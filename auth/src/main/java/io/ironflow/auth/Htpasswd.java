package io.ironflow.auth;

import io.ironflow.policy.Principal;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.spec.InvalidKeySpecException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.wildfly.security.password.Password;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.util.ModularCrypt;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code http_basic}, as Ironic's: an Apache htpasswd file of bcrypt entries ({@code htpasswd -B}, {@code $2y$},
 * {@code $2a$} or {@code $2b$}), checked with WildFly Elytron's bcrypt. Each user's roles and scope come from a side
 * file in YAML: {@code alice: {roles: [admin], system: true}} or {@code bob: {roles: [member], project: p1}}; a user
 * it does not name is authenticated with no role, so every rule refuses it. Both files are read at start.
 * {@link #verify} is blocking and costs the same for unknown users; {@link BasicLogins} runs it off the event loop.
 */
final class Htpasswd implements Authenticator {

    private static final WildFlyElytronPasswordProvider ELYTRON = WildFlyElytronPasswordProvider.getInstance();

    private final Map<String, Password> hashes;
    private final Map<String, Principal> principals;
    private final Password dummy; // checked for unknown users, at the file's highest cost

    private Htpasswd(Map<String, Password> hashes, Map<String, Principal> principals) {
        this.hashes = hashes;
        this.principals = principals;
        int cost = hashes.values().stream().mapToInt(h -> ((BCryptPassword) h).getIterationCount()).max()
                .orElse(HtpasswdHash.DEFAULT_COST);
        try {
            this.dummy = ModularCrypt.decode("$2a$" + HtpasswdHash.bcrypt(UUID.randomUUID().toString(), cost).substring(4));
        } catch (InvalidKeySpecException e) {
            throw new IllegalStateException("bcrypt is not available: " + e.getMessage(), e);
        }
    }

    static Htpasswd load(Path userFile, Path rolesFile) {
        Map<String, Password> hashes = new HashMap<>();
        try {
            int number = 0;
            for (String line : Files.readAllLines(userFile, StandardCharsets.UTF_8)) {
                number++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(':');
                String hash = colon > 0 ? line.substring(colon + 1).trim() : "";
                if (!hash.startsWith("$2")) {
                    throw new IllegalArgumentException("line " + number + " of " + userFile
                            + " is not a bcrypt entry (user:$2y$...); make it with htpasswd -B");
                }
                hashes.put(line.substring(0, colon), ModularCrypt.decode("$2a$" + hash.substring(4)));
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("Cannot read the htpasswd file " + userFile + ": " + e.getMessage(), e);
        }
        return new Htpasswd(Map.copyOf(hashes), rolesFile == null ? Map.of() : roles(rolesFile));
    }

    private static Map<String, Principal> roles(Path file) {
        Map<String, Principal> principals = new HashMap<>();
        try (Reader in = Files.newBufferedReader(file)) {
            Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            if (!(doc instanceof Map<?, ?> users)) {
                throw new IllegalArgumentException("it must map user names to {roles, project, system}");
            }
            users.forEach((user, value) -> {
                Map<?, ?> entry = value instanceof Map<?, ?> m ? m : Map.of();
                Object roles = entry.get("roles");
                Set<String> roleSet = new HashSet<>();
                if (roles instanceof Collection<?> list) {
                    list.forEach(r -> roleSet.add(String.valueOf(r)));
                } else if (roles != null) {
                    roleSet.addAll(List.of(String.valueOf(roles).split("\\s*,\\s*")));
                }
                Object project = entry.get("project");
                principals.put(String.valueOf(user), new Principal(String.valueOf(user),
                        project == null ? null : String.valueOf(project), roleSet, Boolean.TRUE.equals(entry.get("system"))));
            });
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("Cannot read the roles file " + file + ": " + e.getMessage(), e);
        }
        return Map.copyOf(principals);
    }

    @Override
    public Principal authenticate(String authorization, String authToken) throws Unauthenticated {
        BasicCredentials credentials = BasicCredentials.parse(authorization);
        return verify(credentials.user(), credentials.password());
    }

    /**
     * The principal of {@code user} if {@code password} is theirs. Runs bcrypt (blocking: call it off the event
     * loop), against a dummy hash of the file's highest cost when the user is unknown, so that an unknown user is
     * answered no faster than a known one with a wrong password.
     */
    Principal verify(String user, String password) throws Unauthenticated {
        Password hash = hashes.get(user);
        boolean matches = verify(hash != null ? hash : dummy, password);
        if (hash == null || !matches) {
            throw new Unauthenticated("Invalid user or password");
        }
        return principals.getOrDefault(user, new Principal(user, null, Set.of(), false));
    }

    private static boolean verify(Password hash, String guess) {
        try {
            PasswordFactory bcrypt = PasswordFactory.getInstance(BCryptPassword.ALGORITHM_BCRYPT, ELYTRON);
            return bcrypt.verify(bcrypt.translate(hash), guess.toCharArray());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    @Override
    public String challenge() {
        return "Basic realm=\"Baremetal API\"";
    }
}
